// docs/architecture.md "What each change touches" stays true: every path it names exists (with <code>, <suite> and NAME
// standing for each finding code, suite and library), the rules registry is the only list of finding codes, the
// LibEvoBench task names are written only in its folder, and only the registry imports a suite.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { ALL_CODES } from '../server/src/core/rules/index.js';
import { BENCH_TASKS } from '../server/src/eval/libevobench/prompt-contract.js';

const root = join(__dirname, '..');
const architecture = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
const section = architecture.slice(architecture.indexOf('## What each change touches'));
const SUITE_FOLDERS = ['libevobench', 'drift'];
const LIBRARIES = readdirSync(join(root, 'libraries')).filter((name) => name.endsWith('.toml') && name !== 'distributions.toml').map((name) => name.slice(0, -'.toml'.length));

function sources(folder: string): string[] {
  return readdirSync(join(root, folder)).flatMap((name) => {
    const path = `${folder}/${name}`;
    return statSync(join(root, path)).isDirectory() ? sources(path) : /\.(ts|mts)$/.test(name) ? [path] : [];
  });
}
const SOURCES = [...sources('server/src'), ...sources('client/src')];
// The code without its comments: a comment may quote a name ("LibEvoBench: API-C at L2").
const withoutComments = (code: string) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
const text = new Map(SOURCES.map((path) => [path, withoutComments(readFileSync(join(root, path), 'utf8'))]));
const literal = (value: string) => new RegExp(`['"\`]${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"\`]`);

test('the section names the four changes', () => {
  for (const change of ['Add a finding code', 'Add a LibEvoBench task', 'Add a suite', 'Add a library']) assert.ok(section.includes(`**${change}**`), change);
});

test('every path the section names exists, for each code, suite and library it stands for', () => {
  // A path is a backquoted word with a slash or a file extension; bare names are relative to the folder the bullet names first.
  const missing: string[] = [];
  for (const bullet of section.split('\n- ').slice(1)) {
    const base = /`((?:server|client)\/src\/[^`]*\/)`/.exec(bullet)?.[1] ?? '';
    for (const [, word] of bullet.matchAll(/`([^`\s]+)`/g)) {
      if (!/\/|\.(ts|md|toml|json|mjs|sqlite)$/.test(word!) || word!.startsWith('npm')) continue;
      const path = /^(server|client|docs|libraries|matrices|scripts|python-probe|tasks|test)\/|^package\.json$|^README\.md$/.test(word!) ? word! : base + word!;
      const instances = path.includes('<code>') ? ALL_CODES.map((code) => path.replace('<code>', code))
        : path.includes('<suite>') ? SUITE_FOLDERS.map((suite) => path.replace('<suite>', suite))
          : path.includes('NAME') ? LIBRARIES.filter((library) => !path.startsWith('tasks/') || existsSync(join(root, 'tasks', 'drift', `${library}.json`))).map((library) => path.replace('NAME', library))
            : [path];
      for (const instance of instances) {
        // Not every library file has its matrix built and committed yet (django, sqlalchemy).
        if (instance.startsWith('matrices/') && instance.endsWith('.sqlite') && !existsSync(join(root, instance))) continue;
        if (!existsSync(join(root, instance))) missing.push(instance);
      }
    }
  }
  assert.deepEqual(missing, []);
});

test('each finding code is one module in core/rules/ with its page, and no other module lists every code', () => {
  for (const code of ALL_CODES) {
    assert.ok(existsSync(join(root, 'server/src/core/rules', `${code}.ts`)), code);
    assert.ok(existsSync(join(root, 'docs/rules', `${code}.md`)), code);
  }
  const lists = SOURCES.filter((path) => !path.startsWith('server/src/core/rules/') && ALL_CODES.every((code) => literal(code).test(text.get(path)!)));
  assert.deepEqual(lists, []);
});

test("LibEvoBench's task names are written only in its folder (and the editor's flow takes BENCH_TASKS from it)", () => {
  const outside = SOURCES.filter((path) => !path.startsWith('server/src/eval/libevobench/'))
    .flatMap((path) => BENCH_TASKS.filter((task) => literal(task).test(text.get(path)!)).map((task) => `${path}: ${task}`));
  assert.deepEqual(outside, []);
});

test('only the registry imports a suite', () => {
  const importers = SOURCES.filter((path) => /from '[^']*\/(libevobench|drift)\/suite(\.js)?'/.test(text.get(path)!)).map((path) => relative(root, join(root, path)));
  assert.deepEqual(importers, ['server/src/eval/suites.ts']);
});
