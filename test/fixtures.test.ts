// Every fixture in test/fixtures/checks runs through the CLI and through a real LSP session over stdio, and both
// must report exactly the findings its caret comments expect, on the real numpy matrix.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { runCli } from './support/cli.js';
import { loadFixtures, sortFindings, type ExpectedFinding, type Fixture } from './support/fixtures.js';
import { LspSession } from './support/lsp-session.js';

const fixtures = loadFixtures(join(__dirname, 'fixtures', 'checks'));
const workspace = mkdtempSync(join(tmpdir(), 'anachron-fixtures-'));

/** Each fixture gets its own project folder: the fixture as main.py beside a requirements.txt with its pins. */
function projectFor(fixture: Fixture): string {
  const dir = join(workspace, fixture.name.replace(/\.py$/, ''));
  mkdirSync(dir, { recursive: true });
  copyFileSync(fixture.file, join(dir, 'main.py'));
  writeFileSync(join(dir, 'requirements.txt'), fixture.pins.join('\n') + '\n');
  return dir;
}

const key = (f: ExpectedFinding) => `${f.line}:${f.column}-${f.endColumn} ${f.code} ${f.api}${f.parameter ? ` ${f.parameter}` : ''}`;

describe('fixtures through the CLI', () => {
  for (const fixture of fixtures) {
    test(fixture.name, () => {
      const dir = projectFor(fixture);
      const r = runCli(['check', 'main.py', '--format', 'json'], dir);
      assert.equal(r.code, fixture.expected.length > 0 ? 1 : 0, r.stderr);
      const got = (JSON.parse(r.stdout) as { line: number; column: number; endColumn: number; code: string; api: string; parameter: string | null }[]).map((f) => ({
        line: f.line, column: f.column, endColumn: f.endColumn, code: f.code, api: f.api, parameter: f.parameter,
      }));
      assert.deepEqual(sortFindings(got).map(key), sortFindings(fixture.expected).map(key));
    });
  }
});

describe('fixtures through a real LSP session', () => {
  let session: LspSession;
  before(async () => {
    session = new LspSession();
    await session.initialize(workspace);
  });
  after(() => session.close());

  for (const fixture of fixtures) {
    test(fixture.name, async () => {
      const dir = projectFor(fixture);
      const diagnostics: Diagnostic[] = await session.open(join(dir, 'main.py'), fixture.text);
      for (const d of diagnostics) {
        assert.equal(d.source, 'anachron');
        assert.ok(d.data && typeof (d.data as { api: string }).api === 'string');
      }
      const got = diagnostics.map((d) => ({
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        endColumn: d.range.end.character + 1,
        code: String(d.code),
        api: (d.data as { api: string }).api,
        parameter: (d.data as { parameter: string | null }).parameter,
      }));
      assert.deepEqual(sortFindings(got).map(key), sortFindings(fixture.expected).map(key));
    });
  }
});
