// `anachron mcp` with the official MCP SDK's own client over stdio: the built CLI is spawned as an MCP client
// would (Claude Desktop, Cursor, VS Code's mcp.json), lists its tools with their input schemas, and answers lookups
// and checks at the pins of the project folder it serves — the same answers the editor's tools give, on either
// SQLite store (better-sqlite3, and the WebAssembly SQLite forced).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CHECK_INPUT_SCHEMA, LOOKUP_INPUT_SCHEMA } from '../server/src/knowledge/tools.js';
import { REPO_ROOT } from './support/cli.js';

type TextContent = { type: 'text'; text: string };

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as TextContent[]).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

for (const store of ['native', 'wasm'] as const) {
  describe(`anachron mcp over stdio, with the MCP SDK client (${store} SQLite)`, () => {
    let project: string;
    let client: Client;
    let stderr = '';

    before(async () => {
      project = mkdtempSync(join(tmpdir(), 'anachron-mcp-'));
      writeFileSync(join(project, 'requirements.txt'), '# the project\nnumpy==1.24.2\n');
      mkdirSync(join(project, 'legacy'));
      writeFileSync(join(project, 'legacy', 'requirements.txt'), 'numpy==1.19.5\n');
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [join(REPO_ROOT, 'bin', 'anachron.js'), 'mcp', '--project', project],
        cwd: REPO_ROOT,
        env: { ...(process.env as Record<string, string>), ANACHRON_SQLITE: store },
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (d) => (stderr += d));
      client = new Client({ name: 'anachron-test', version: '1.0.0' });
      await client.connect(transport);
    });

    after(async () => {
      await client?.close();
    });

    test('the server introduces itself and lists the two tools with their input schemas', async () => {
      assert.equal(client.getServerVersion()?.name, 'anachron');
      assert.match(client.getInstructions() ?? '', /anachron_lookup/);
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ['anachron_check', 'anachron_lookup']);
      const lookup = tools.find((t) => t.name === 'anachron_lookup')!;
      assert.deepEqual(lookup.inputSchema, JSON.parse(JSON.stringify(LOOKUP_INPUT_SCHEMA)));
      assert.deepEqual(tools.find((t) => t.name === 'anachron_check')!.inputSchema, JSON.parse(JSON.stringify(CHECK_INPUT_SCHEMA)));
      assert.equal(lookup.annotations?.readOnlyHint, true);
      assert.match(stderr, /serving anachron_lookup and anachron_check/);
    });

    test('anachron_lookup answers at the project\'s pin, from its requirements.txt', async () => {
      const result = await client.callTool({ name: 'anachron_lookup', arguments: { api: 'numpy.trapezoid' } });
      assert.ok(!result.isError);
      const text = textOf(result);
      assert.match(text, /numpy==1\.24\.2 \(requirements\.txt:2\)/);
      assert.match(text, /Exists at numpy 1\.24\.2:\*\* NO/);
      assert.match(text, /Use instead:\*\* `numpy\.trapz` — `trapz\(y, x=None, dx=1\.0, axis=-1\)`/);
    });

    test('the pins of a subfolder, and pins given with the call, take over', async () => {
      const legacy = textOf(await client.callTool({ name: 'anachron_lookup', arguments: { api: 'numpy.unique', path: 'legacy' } }));
      assert.match(legacy, /numpy==1\.19\.5 \(legacy\/requirements\.txt:1\)/);
      assert.doesNotMatch(legacy.split('\n').find((l) => l.includes('Signature at'))!, /equal_nan/);
      const given = textOf(await client.callTool({ name: 'anachron_lookup', arguments: { api: 'numpy.trapezoid', pins: ['numpy==2.2.4'] } }));
      assert.match(given, /numpy==2\.2\.4 \(given to the tool\)/);
      assert.match(given, /Exists at numpy 2\.2\.4:\*\* yes/);
    });

    test('anachron_lookup finds an API from a description at the pinned version', async () => {
      const text = textOf(await client.callTool({ name: 'anachron_lookup', arguments: { module: 'numpy', description: 'integrate along an axis with the composite trapezoidal rule', scope: 'library' } }));
      assert.match(text, /^1\. `numpy\.trapz` \(function\)/m);
    });

    test('anachron_check reports the findings at the pins with their fixes', async () => {
      const code = 'import numpy as np\n\ndef area(y):\n    return np.trapezoid(y, dx=0.5)\n';
      const result = await client.callTool({ name: 'anachron_check', arguments: { code } });
      const text = textOf(result);
      assert.match(text, /\*\*1 finding\*\* at numpy==1\.24\.2 \(requirements\.txt:2\)/);
      assert.match(text, /- line 4: error \[anachronistic-api\] `numpy\.trapezoid` needs numpy ≥ 2\.0 \(pinned 1\.24\.2\)/);
      assert.match(text, /\*\*Fix:\*\* Use `numpy\.trapz`.* → `return np\.trapz\(y, dx=0\.5\)`/);
      assert.match(text, /\*\*Or:\*\* Raise the pin to numpy==2\.0\.0 in requirements\.txt/);
      // The same code at a pin given with the call: nothing to report.
      const clean = textOf(await client.callTool({ name: 'anachron_check', arguments: { code, pins: ['numpy==2.2.4'] } }));
      assert.match(clean, /No anachronisms/);
      // The manifest was only read.
      assert.equal(readFileSync(join(project, 'requirements.txt'), 'utf8'), '# the project\nnumpy==1.24.2\n');
    });

    test('anachron_check on a file of the project, or a range of it under the file\'s imports', async () => {
      writeFileSync(join(project, 'legacy', 'old.py'), 'import numpy as np\n\n\ndef f(y):\n    a = np.trapz(y)\n    return np.unique(y, equal_nan=False)\n');
      const whole = textOf(await client.callTool({ name: 'anachron_check', arguments: { path: 'legacy/old.py' } }));
      assert.match(whole, /\*\*1 finding\*\* at numpy==1\.19\.5 \(legacy\/requirements\.txt:1\)/);
      assert.match(whole, /- legacy\/old\.py:6:\d+: error \[anachronistic-parameter\] `numpy\.unique\(equal_nan=\)` needs numpy ≥ 1\.23 \(pinned 1\.19\.5\) — legacy\/requirements\.txt:1 pins/);
      const range = textOf(await client.callTool({ name: 'anachron_check', arguments: { path: 'legacy/old.py', startLine: 5, endLine: 5 } }));
      assert.match(range, /No anachronisms:.* numpy==1\.19\.5/, 'np.trapz resolves through the file\'s import and exists at 1.19.5');
      const bad = await client.callTool({ name: 'anachron_check', arguments: { path: 'legacy/old.py', startLine: 9, endLine: 3 } });
      assert.equal(bad.isError, true);
      assert.match(textOf(bad), /endLine comes before startLine/);
    });

    test('paths outside the project (absolute, climbing, or through a symlink) and special files are refused, nothing of them read', async () => {
      const outside = mkdtempSync(join(tmpdir(), 'anachron-mcp-outside-'));
      const secret = `anachron-outside-${process.pid}-${Date.now()}`;
      writeFileSync(join(outside, 'secret.py'), `import numpy as np\nSECRET = "${secret}"\nnp.trapezoid([1])\n`);
      symlinkSync(join(outside, 'secret.py'), join(project, 'linked.py'));
      mkdirSync(join(project, 'pipes'), { recursive: true });
      spawnSync('mkfifo', [join(project, 'pipes', 'pipe.py')]);
      for (const path of ['/etc/shadow', join(outside, 'secret.py'), '../' + join('..', outside, 'secret.py'), 'linked.py']) {
        const result = await client.callTool({ name: 'anachron_check', arguments: { path } });
        assert.equal(result.isError, true, path);
        assert.match(textOf(result), /lies outside the project .*reads only files under its --project folder/, path);
        assert.ok(!textOf(result).includes(secret));
        const lookup = await client.callTool({ name: 'anachron_lookup', arguments: { api: 'numpy.trapz', path } });
        assert.equal(lookup.isError, true, path);
      }
      const fifo = await client.callTool({ name: 'anachron_check', arguments: { path: 'pipes/pipe.py' } });
      assert.equal(fifo.isError, true);
      assert.match(textOf(fifo), /cannot read pipes\/pipe\.py: a FIFO, not a regular file/);
    });

    test('bad input is a tool error the agent can read, not a protocol failure', async () => {
      const result = await client.callTool({ name: 'anachron_lookup', arguments: { version: '1.0' } });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /unknown input "version"/);
      const missing = await client.callTool({ name: 'anachron_check', arguments: {} });
      assert.equal(missing.isError, true);
      assert.match(textOf(missing), /code must be the Python code to check/);
      const unknown = await client.callTool({ name: 'anachron_fix', arguments: {} });
      assert.equal(unknown.isError, true);
    });
  });
}
