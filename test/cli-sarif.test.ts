// `anachron check --format sarif`: a SARIF 2.1.0 log that code scanning accepts, checked against the structure
// the SARIF 2.1.0 schema prescribes (property names, required members, enums, ranges) on real CLI output.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { runCli } from './support/cli.js';
import { writeProject } from './support/project.js';

const project = (files: Record<string, string>) => writeProject(files, 'anachron-sarif-');

function gitInit(dir: string): void {
  const r = spawnSync('git', ['-c', 'init.defaultBranch=main', 'init', '-q'], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

const TRAPEZOID = 'import numpy as np\ny = np.trapezoid([1, 2, 3])\n';

// ---- structural validation after the SARIF 2.1.0 JSON schema (sarif-schema-2.1.0.json) ----

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const ALLOWED: Record<string, string[]> = {
  sarifLog: ['$schema', 'version', 'runs', 'inlineExternalProperties', 'properties'],
  run: [
    'tool', 'invocations', 'conversion', 'language', 'versionControlProvenance', 'originalUriBaseIds', 'artifacts',
    'logicalLocations', 'graphs', 'results', 'automationDetails', 'runAggregates', 'baselineGuid', 'redactionTokens',
    'defaultEncoding', 'defaultSourceLanguage', 'newlineSequences', 'columnKind', 'externalPropertyFileReferences',
    'threadFlowLocations', 'taxonomies', 'addresses', 'translations', 'policies', 'webRequests', 'webResponses',
    'specialLocations', 'properties',
  ],
  tool: ['driver', 'extensions', 'properties'],
  toolComponent: [
    'guid', 'name', 'organization', 'product', 'productSuite', 'shortDescription', 'fullDescription', 'fullName',
    'version', 'semanticVersion', 'dottedQuadFileVersion', 'releaseDateUtc', 'downloadUri', 'informationUri',
    'globalMessageStrings', 'notifications', 'rules', 'taxa', 'locations', 'language', 'contents', 'isComprehensive',
    'localizedDataSemanticVersion', 'minimumRequiredLocalizedDataSemanticVersion', 'associatedComponent',
    'translationMetadata', 'supportedTaxonomies', 'properties',
  ],
  reportingDescriptor: [
    'id', 'deprecatedIds', 'guid', 'deprecatedGuids', 'name', 'deprecatedNames', 'shortDescription', 'fullDescription',
    'messageStrings', 'defaultConfiguration', 'helpUri', 'help', 'relationships', 'properties',
  ],
  multiformatMessageString: ['text', 'markdown', 'properties'],
  message: ['text', 'markdown', 'id', 'arguments', 'properties'],
  reportingConfiguration: ['enabled', 'level', 'rank', 'parameters', 'properties'],
  result: [
    'ruleId', 'ruleIndex', 'rule', 'kind', 'level', 'message', 'analysisTarget', 'locations', 'guid', 'correlationGuid',
    'occurrenceCount', 'partialFingerprints', 'fingerprints', 'stacks', 'codeFlows', 'graphs', 'graphTraversals',
    'relatedLocations', 'suppressions', 'baselineState', 'rank', 'attachments', 'hostedViewerUri', 'workItemUris',
    'provenance', 'fixes', 'taxa', 'webRequest', 'webResponse', 'properties',
  ],
  location: ['id', 'physicalLocation', 'logicalLocations', 'message', 'annotations', 'relationships', 'properties'],
  physicalLocation: ['address', 'artifactLocation', 'region', 'contextRegion', 'properties'],
  artifactLocation: ['uri', 'uriBaseId', 'index', 'description', 'properties'],
  region: [
    'startLine', 'startColumn', 'endLine', 'endColumn', 'charOffset', 'charLength', 'byteOffset', 'byteLength',
    'snippet', 'message', 'sourceLanguage', 'properties',
  ],
};
const LEVELS = ['none', 'note', 'warning', 'error'];

function obj(value: Json | undefined, where: string, kind: keyof typeof ALLOWED, required: string[] = []): Obj {
  assert.ok(value !== null && typeof value === 'object' && !Array.isArray(value), `${where} must be an object`);
  const o = value as Obj;
  for (const key of Object.keys(o)) assert.ok(ALLOWED[kind]!.includes(key), `${where}: "${key}" is not a property of ${kind}`);
  for (const key of required) assert.ok(key in o, `${where}: ${kind} requires "${key}"`);
  if ('properties' in o) propertyBag(o.properties, `${where}.properties`);
  return o;
}

function arr(value: Json | undefined, where: string): Json[] {
  assert.ok(Array.isArray(value), `${where} must be an array`);
  return value;
}

function str(value: Json | undefined, where: string): string {
  assert.equal(typeof value, 'string', `${where} must be a string`);
  return value as string;
}

function int(value: Json | undefined, where: string, min: number): number {
  assert.ok(Number.isInteger(value) && (value as number) >= min, `${where} must be an integer >= ${min}, not ${JSON.stringify(value)}`);
  return value as number;
}

function absoluteUri(value: Json | undefined, where: string): string {
  const text = str(value, where);
  assert.doesNotThrow(() => new URL(text), `${where} must be an absolute URI: ${text}`);
  return text;
}

function uriReference(value: Json | undefined, where: string): string {
  const text = str(value, where);
  assert.ok(!/[\s\\]/.test(text), `${where} must be a URI reference (no spaces or backslashes): ${text}`);
  assert.doesNotThrow(() => new URL(text, 'file:///base/'), `${where} must be a URI reference: ${text}`);
  return text;
}

function propertyBag(value: Json | undefined, where: string): void {
  assert.ok(value !== null && typeof value === 'object' && !Array.isArray(value), `${where} must be an object`);
  const tags = (value as Obj).tags;
  if (tags !== undefined) {
    const list = arr(tags, `${where}.tags`).map((t, i) => str(t, `${where}.tags[${i}]`));
    assert.equal(new Set(list).size, list.length, `${where}.tags must be unique`);
  }
}

function multiformat(value: Json | undefined, where: string): void {
  const m = obj(value, where, 'multiformatMessageString', ['text']);
  str(m.text, `${where}.text`);
}

/** Throws with the path of the first violation; returns the log typed loosely for content checks. */
function validateSarif(log: Json): Obj {
  const root = obj(log, 'log', 'sarifLog', ['version', 'runs']);
  assert.equal(root.version, '2.1.0');
  if ('$schema' in root) absoluteUri(root.$schema, 'log.$schema');
  arr(root.runs, 'log.runs').forEach((runValue, r) => {
    const at = `runs[${r}]`;
    const run = obj(runValue, at, 'run', ['tool']);
    if ('columnKind' in run) assert.ok(['utf16CodeUnits', 'unicodeCodePoints'].includes(run.columnKind as string), `${at}.columnKind`);
    const tool = obj(run.tool, `${at}.tool`, 'tool', ['driver']);
    const driver = obj(tool.driver, `${at}.tool.driver`, 'toolComponent', ['name']);
    str(driver.name, `${at}.tool.driver.name`);
    if ('version' in driver) str(driver.version, `${at}.tool.driver.version`);
    if ('semanticVersion' in driver) assert.match(str(driver.semanticVersion, 'semanticVersion'), /^\d+\.\d+\.\d+/);
    if ('informationUri' in driver) absoluteUri(driver.informationUri, `${at}.tool.driver.informationUri`);
    const rules = arr(driver.rules ?? [], `${at}.tool.driver.rules`).map((ruleValue, i) => {
      const w = `${at}.tool.driver.rules[${i}]`;
      const rule = obj(ruleValue, w, 'reportingDescriptor', ['id']);
      str(rule.id, `${w}.id`);
      if ('shortDescription' in rule) multiformat(rule.shortDescription, `${w}.shortDescription`);
      if ('fullDescription' in rule) multiformat(rule.fullDescription, `${w}.fullDescription`);
      if ('help' in rule) multiformat(rule.help, `${w}.help`);
      if ('helpUri' in rule) absoluteUri(rule.helpUri, `${w}.helpUri`);
      if ('defaultConfiguration' in rule) {
        const config = obj(rule.defaultConfiguration, `${w}.defaultConfiguration`, 'reportingConfiguration');
        if ('level' in config) assert.ok(LEVELS.includes(config.level as string), `${w}.defaultConfiguration.level`);
      }
      return rule;
    });
    const ids = rules.map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length, `${at}: rule ids must be unique`);
    const baseIds = new Set<string>();
    if ('originalUriBaseIds' in run) {
      const bases = run.originalUriBaseIds as Obj;
      assert.ok(bases && typeof bases === 'object' && !Array.isArray(bases), `${at}.originalUriBaseIds must be an object`);
      for (const [name, value] of Object.entries(bases)) {
        const location = obj(value, `${at}.originalUriBaseIds.${name}`, 'artifactLocation');
        if ('uriBaseId' in location) str(location.uriBaseId, 'uriBaseId');
        else assert.ok(absoluteUri(location.uri, `${at}.originalUriBaseIds.${name}.uri`).endsWith('/'), 'a base URI ends with "/"');
        baseIds.add(name);
      }
    }
    arr(run.results ?? [], `${at}.results`).forEach((resultValue, i) => {
      const w = `${at}.results[${i}]`;
      const result = obj(resultValue, w, 'result', ['message']);
      const message = obj(result.message, `${w}.message`, 'message');
      assert.ok('text' in message || 'id' in message, `${w}.message needs text or id`);
      if ('text' in message) str(message.text, `${w}.message.text`);
      if ('level' in result) assert.ok(LEVELS.includes(result.level as string), `${w}.level`);
      if ('ruleIndex' in result) {
        const index = int(result.ruleIndex, `${w}.ruleIndex`, 0);
        assert.ok(index < rules.length, `${w}.ruleIndex out of range`);
        if ('ruleId' in result) assert.equal(rules[index]!.id, result.ruleId, `${w}: ruleId and ruleIndex disagree`);
      }
      if ('ruleId' in result) str(result.ruleId, `${w}.ruleId`);
      for (const key of ['partialFingerprints', 'fingerprints'] as const) {
        if (!(key in result)) continue;
        const prints = result[key] as Obj;
        assert.ok(prints && typeof prints === 'object' && !Array.isArray(prints), `${w}.${key} must be an object`);
        for (const [k, v] of Object.entries(prints)) str(v, `${w}.${key}.${k}`);
      }
      arr(result.locations ?? [], `${w}.locations`).forEach((locationValue, j) => {
        const lw = `${w}.locations[${j}]`;
        const location = obj(locationValue, lw, 'location');
        const physical = obj(location.physicalLocation, `${lw}.physicalLocation`, 'physicalLocation');
        const artifact = obj(physical.artifactLocation, `${lw}.physicalLocation.artifactLocation`, 'artifactLocation');
        const uri = uriReference(artifact.uri, `${lw}.artifactLocation.uri`);
        if ('uriBaseId' in artifact) {
          assert.ok(baseIds.has(str(artifact.uriBaseId, 'uriBaseId')) || !('originalUriBaseIds' in run), `${lw}: uriBaseId ${artifact.uriBaseId} is not defined`);
          assert.ok(!/^[a-z][a-z0-9+.-]*:/i.test(uri) && !uri.startsWith('/'), `${lw}: a uri with a uriBaseId must be relative`);
        } else absoluteUri(uri, `${lw}.artifactLocation.uri`);
        const region = obj(physical.region, `${lw}.physicalLocation.region`, 'region');
        const startLine = int(region.startLine, `${lw}.region.startLine`, 1);
        const startColumn = int(region.startColumn ?? 1, `${lw}.region.startColumn`, 1);
        const endLine = int(region.endLine ?? startLine, `${lw}.region.endLine`, 1);
        const endColumn = int(region.endColumn ?? startColumn + 1, `${lw}.region.endColumn`, 1);
        assert.ok(endLine > startLine || (endLine === startLine && endColumn >= startColumn), `${lw}: region ends before it starts`);
      });
    });
  });
  return root;
}

interface Result {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region: { startLine: number; startColumn: number; endLine: number; endColumn: number } } }[];
  partialFingerprints: Record<string, string>;
  properties: { library: string; api: string; parameter: string | null; pin: string; requirement: string; pinSource: string; availableIn: string[] };
}
interface Run {
  tool: { driver: { name: string; version: string; informationUri?: string; rules: { id: string; helpUri: string; shortDescription: { text: string }; defaultConfiguration: { level: string } }[] } };
  originalUriBaseIds: Record<string, { uri: string }>;
  results: Result[];
}

function sarif(dir: string, ...args: string[]): { code: number; run: Run; stderr: string } {
  const r = runCli(['check', ...args, '--format', 'sarif'], dir);
  assert.notEqual(r.code, 2, r.stderr);
  const log = JSON.parse(r.stdout) as Json;
  validateSarif(log);
  return { code: r.code, run: (log as unknown as { runs: Run[] }).runs[0]!, stderr: r.stderr };
}

describe('anachron check --format sarif', () => {
  test('the structural checks reject what SARIF 2.1.0 forbids', () => {
    const good = { version: '2.1.0', runs: [{ tool: { driver: { name: 'x', rules: [{ id: 'a' }] } }, results: [] }] };
    assert.doesNotThrow(() => validateSarif(good));
    const bad: [Json, RegExp][] = [
      [{ ...good, version: '2.0.0' }, /2\.1\.0/],
      [{ version: '2.1.0', runs: [{ tool: { driver: {} } }] }, /requires "name"/],
      [{ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, level: 'fatal' }] }] }, /level/],
      [{ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, severity: 'error' }] }] }, /"severity" is not a property of result/],
      [{ version: '2.1.0', runs: [{ tool: { driver: { name: 'x', rules: [{ id: 'a' }] } }, results: [{ message: { text: 'm' }, ruleId: 'b', ruleIndex: 0 }] }] }, /disagree/],
      [{ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'a.py' }, region: { startLine: 0 } } }] }] }] }, /absolute URI|startLine/],
    ];
    for (const [log, message] of bad) assert.throws(() => validateSarif(log), message);
  });

  test('numpy.trapezoid at numpy==1.24.2: one error result, located relative to the repository root', () => {
    const dir = project({ 'requirements.txt': 'numpy==1.24.2\n', 'src/pkg/a.py': TRAPEZOID });
    gitInit(dir);
    const { code, run } = sarif(dir);
    assert.equal(code, 1);
    const driver = run.tool.driver;
    assert.equal(driver.name, 'anachron');
    assert.match(driver.version, /^\d+\.\d+\.\d+/);
    // package.json names no repository: no guessed home page, and rule help points at the installed pages.
    assert.equal(driver.informationUri, undefined);
    const ids = driver.rules.map((r) => r.id);
    for (const id of ['anachronistic-api', 'unknown-api', 'unconfirmed-api', 'anachronistic-parameter', 'unknown-parameter']) assert.ok(ids.includes(id), id);
    for (const rule of driver.rules) {
      assert.ok(rule.helpUri.endsWith(`/docs/rules/${rule.id}.md`), rule.helpUri);
      assert.ok(existsSync(fileURLToPath(rule.helpUri)), rule.helpUri);
      assert.ok(rule.shortDescription.text.length > 0);
    }
    assert.equal(driver.rules.find((r) => r.id === 'anachronistic-api')!.defaultConfiguration.level, 'error');
    assert.equal(driver.rules.find((r) => r.id === 'unknown-api')!.defaultConfiguration.level, 'warning');
    assert.equal(driver.rules.find((r) => r.id === 'unconfirmed-api')!.defaultConfiguration.level, 'note');
    assert.equal(run.originalUriBaseIds.SRCROOT!.uri, pathToFileURL(dir).href + '/');

    assert.equal(run.results.length, 1);
    const [result] = run.results;
    assert.equal(result!.ruleId, 'anachronistic-api');
    assert.equal(driver.rules[result!.ruleIndex]!.id, 'anachronistic-api');
    assert.equal(result!.level, 'error');
    assert.match(result!.message.text, /`numpy\.trapezoid` needs numpy ≥ 2\.0 \(pinned 1\.24\.2\) — requirements\.txt:\d+ pins numpy==1\.24\.2/);
    assert.deepEqual(result!.locations[0]!.physicalLocation, {
      artifactLocation: { uri: 'src/pkg/a.py', uriBaseId: 'SRCROOT' },
      region: { startLine: 2, startColumn: 5, endLine: 2, endColumn: 17 },
    });
    const p = result!.properties;
    assert.deepEqual(
      { library: p.library, api: p.api, parameter: p.parameter, pin: p.pin, requirement: p.requirement, pinSource: p.pinSource },
      { library: 'numpy', api: 'numpy.trapezoid', parameter: null, pin: '1.24.2', requirement: 'numpy==1.24.2', pinSource: 'requirements.txt:1' },
    );
    const availableIn = p.availableIn as string[];
    assert.equal(availableIn[0], '2.0.0', 'every tracked version from 2.0.0 on');
    assert.ok(availableIn.includes('2.2.4') && availableIn.every((v) => Number(v.split('.')[0]) >= 2), availableIn.join(' '));
    assert.equal(Object.keys(result!.partialFingerprints).length, 1);
  });

  test('paths stay relative to the repository root when run from a subfolder', () => {
    const dir = project({ 'src/pkg/a.py': TRAPEZOID });
    gitInit(dir);
    const { run } = sarif(join(dir, 'src'), '--pin', 'numpy==1.24.2');
    assert.equal(run.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri, 'src/pkg/a.py');
  });

  test('outside a git repository the current folder is the source root; odd file names are percent-encoded', () => {
    const dir = project({ 'my file.py': TRAPEZOID });
    const r = runCli(['check', '--pin', 'numpy==1.24.2', '--format', 'sarif'], dir, { GIT_CEILING_DIRECTORIES: join(dir, '..') });
    const log = JSON.parse(r.stdout) as Json;
    validateSarif(log);
    const run = (log as unknown as { runs: Run[] }).runs[0]!;
    assert.equal(run.originalUriBaseIds.SRCROOT!.uri, pathToFileURL(dir).href + '/');
    assert.equal(run.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri, 'my%20file.py');
  });

  test('fingerprints are stable across runs and survive lines added above; different findings differ', () => {
    const dir = project({ 'a.py': 'import numpy as np\ny = np.trapezoid([1])\nz = np.trapezoid([2])\nu = np.not_a_thing()\n' });
    const first = sarif(dir, '--pin', 'numpy==1.24.2').run.results;
    const again = sarif(dir, '--pin', 'numpy==1.24.2').run.results;
    assert.deepEqual(again.map((r) => r.partialFingerprints), first.map((r) => r.partialFingerprints));
    const prints = first.map((r) => JSON.stringify(r.partialFingerprints));
    assert.equal(new Set(prints).size, prints.length, 'each finding has its own fingerprint');
    writeFileSync(join(dir, 'a.py'), '"""A docstring."""\n\nimport numpy as np\ny = np.trapezoid([1])\nz = np.trapezoid([2])\nu = np.not_a_thing()\n');
    const shifted = sarif(dir, '--pin', 'numpy==1.24.2').run.results;
    assert.deepEqual(shifted.map((r) => r.locations[0]!.physicalLocation.region.startLine), first.map((r) => r.locations[0]!.physicalLocation.region.startLine + 2));
    assert.deepEqual(shifted.map((r) => r.partialFingerprints), first.map((r) => r.partialFingerprints));
  });

  test('severities map to SARIF levels: a possibly hallucinated API is a warning', () => {
    const dir = project({ 'a.py': 'import numpy as np\nu = np.not_a_thing()\n' });
    const { code, run } = sarif(dir, '--pin', 'numpy==2.2.4');
    assert.equal(code, 1);
    assert.deepEqual(run.results.map((r) => [r.ruleId, r.level]), [['unknown-api', 'warning']]);
  });

  test('no findings: an empty, valid log and exit code 0', () => {
    const dir = project({ 'a.py': TRAPEZOID });
    const { code, run } = sarif(dir, '--pin', 'numpy==2.2.4');
    assert.equal(code, 0);
    assert.deepEqual(run.results, []);
    assert.ok(run.tool.driver.rules.length >= 5);
  });
});
