// The error taxonomy (server/src/core/errors.ts) as every entry point applies it: an input error is one line that says
// what to change (CLI exit 2), an internal error says it is one, with its stack and a request to report it (exit 3);
// --debug adds the stack to input errors. The built CLI must exist (npm run build).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { errorMessage, InputError, internalErrorReport, isInputError } from '../server/src/core/errors.js';
import { reportError } from '../server/src/cli/main.js';
import { ConfigError } from '../server/src/eval/models/config.js';
import { RunMismatchError } from '../server/src/eval/runs/store.js';
import { runCli } from './support/cli.js';

function captured(e: unknown, debug = false): { code: number; lines: string[] } {
  const lines: string[] = [];
  const code = reportError(e, (s) => lines.push(...s.split('\n')), debug);
  return { code, lines };
}

describe('what counts as an input error', () => {
  test('InputError and the classes of bad input (configs, runs, tools) are input errors', () => {
    for (const e of [new InputError('x'), new ConfigError('seed must be an integer'), new RunMismatchError('another run')]) assert.equal(isInputError(e), true, e.name);
  });

  test('a failed system call on a path is input; a malformed flag is input; a TypeError is not', () => {
    let enoent: unknown;
    try {
      readFileSync(join(tmpdir(), 'anachron-no-such-file-here'));
    } catch (e) {
      enoent = e;
    }
    assert.equal(isInputError(enoent), true);
    assert.equal(isInputError(Object.assign(new TypeError('Unknown option'), { code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' })), true);
    assert.equal(isInputError(new TypeError("Cannot read properties of undefined (reading 'x')")), false);
    assert.equal(isInputError(Object.assign(new Error('no syscall'), { code: 'ENOENT' })), false, 'an ENOENT code without a system call is not a filesystem error');
    assert.equal(isInputError('a string'), false);
    assert.equal(errorMessage('a string'), 'a string');
  });
});

describe('how the CLI reports them', () => {
  test('an input error: one line, exit 2; --debug adds the stack', () => {
    const plain = captured(new InputError('the config lacks a seed'));
    assert.deepEqual(plain, { code: 2, lines: ['anachron: the config lacks a seed'] });
    const debug = captured(new InputError('the config lacks a seed'), true);
    assert.equal(debug.code, 2);
    assert.ok(debug.lines.length > 2 && debug.lines.slice(1).some((l) => /^\s+at /.test(l)), debug.lines.join('\n'));
  });

  test('an internal error: says it is one, asks to report it, shows the stack, exit 3', () => {
    const { code, lines } = captured(new TypeError("Cannot read properties of undefined (reading 'versions')"));
    assert.equal(code, 3);
    assert.equal(lines[0], "anachron: internal error: Cannot read properties of undefined (reading 'versions')");
    assert.match(lines[1]!, /a bug in anachron, not a problem with your input; please report it/);
    assert.ok(lines.some((l) => /^\s+at /.test(l)), 'the stack');
    assert.match(internalErrorReport('thrown text', 'anachron mcp: lookup'), /^anachron mcp: lookup: internal error: thrown text\n/);
  });

  test('the built CLI: an unknown command and a missing file are input errors (exit 2, no stack)', () => {
    const unknown = runCli(['frobnicate']);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stderr.trim(), 'anachron: unknown command "frobnicate"');
    const dir = mkdtempSync(join(tmpdir(), 'anachron-errors-'));
    const config = join(dir, 'run.json');
    writeFileSync(config, '{"suite": "libevobench", "libraries": ["numpy"], "tasks": ["SR"], "model": {"provider": "builtin", "model": "echo"}}');
    const missingSeed = runCli(['bench', 'run', config, '--out', join(dir, 'out')]);
    assert.equal(missingSeed.code, 2);
    assert.match(missingSeed.stderr, /seed must be an integer/);
    assert.doesNotMatch(missingSeed.stderr, /^\s+at /m);
    const debug = runCli(['--debug', 'bench', 'run', config, '--out', join(dir, 'out')]);
    assert.equal(debug.code, 2);
    assert.match(debug.stderr, /^\s+at /m, '--debug shows where the error came from');
  });
});
