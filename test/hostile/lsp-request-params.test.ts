// Custom requests with params of the wrong shape (null, a number for a string, a string for a list) get InvalidParams
// naming the field, and nothing is logged as an internal error; they answered with raw TypeErrors
// ("params.api?.trim is not a function", "params.uris is not iterable") reported as internal errors.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileUri, withSession } from '../support/lsp-session.js';
import { writeProject } from '../support/project.js';

test('custom requests with ill-shaped params: InvalidParams naming the field, no internal error, the server still answers', async () => {
  const dir = writeProject({ 'requirements.txt': 'numpy==1.24.2\n' });
  await withSession(dir, async (session) => {
    const file = join(dir, 'a.py');
    const uri = fileUri(file);
    await session.open(file, 'import numpy as np\ny = np.trapezoid([1])\n');
    const cases: [string, unknown, RegExp][] = [
      ['anachron/pins', null, /anachron\/pins: the params must be an object/],
      ['anachron/pins', { uri: 5 }, /params\.uri must be a string/],
      ['anachron/history', { uri, api: 5 }, /params\.api must be a string/],
      ['anachron/history', { uri, position: { line: 'x', character: null } }, /params\.position must be a position/],
      ['anachron/checkFiles', { uris: uri }, /params\.uris must be a list of strings/],
      ['anachron/checkFiles', null, /the params must be an object/],
      ['anachron/lookup', [1, 2], /the params must be an object/],
      ['anachron/lookup', { input: {}, uri: 7 }, /params\.uri must be a string/],
      ['anachron/checkSnippet', { input: {}, firstLine: 'one' }, /params\.firstLine must be a number/],
      ['anachron/migrate', { code: 5, target: '2.0.0' }, /params\.code must be a string/],
      ['anachron/migrate', { code: 'import numpy', target: null }, /params\.target must be a string/],
      ['anachron/reviewChanges', null, /the params must be an object/],
      ['anachron/reviewChanges', { folderUri: fileUri(dir), rev: 5 }, /params\.rev must be a string/],
    ];
    for (const [method, params, message] of cases) {
      await assert.rejects(session.connection.sendRequest(method, params), (e: { code?: number; message: string }) => {
        assert.equal(e.code, -32602, `${method} ${JSON.stringify(params)}: ${e.message}`);
        assert.match(e.message, message);
        return true;
      });
    }
    assert.deepEqual(session.logs.filter((l) => /internal error|TypeError/.test(l)), []);
    const pins = (await session.connection.sendRequest('anachron/pins', { uri })) as { pins: { distribution: string }[] };
    assert.deepEqual(pins.pins.map((p) => p.distribution), ['numpy']);
  });
});
