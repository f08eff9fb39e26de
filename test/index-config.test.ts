// Which package index anachron asks, as pip and uv users have configured it (server/src/package-index/
// index-config.ts): the precedence of --index-url, requirements files, UV_*/PIP_* variables, [[tool.uv.index]],
// pip.conf and uv.toml; extra indexes in order; Restricted Mode ignoring what workspace files name; netrc and URL
// credentials, never shown; proxies from the environment.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CredentialStore, displayUrl, redactUrls } from '../server/src/package-index/credentials.js';
import { bypassesProxy, proxyFor } from '../server/src/package-index/http.js';
import { indexesFor, requirementsIndexOptions, resolveIndexConfig, type IndexConfigInputs } from '../server/src/package-index/index-config.js';
import { netrcCredentials, parseNetrc } from '../server/src/package-index/netrc.js';

const base: IndexConfigInputs = { env: {}, pipFiles: [], uvFiles: [], requirements: [], trusted: true };
const PIP_CONF = { file: '/home/me/.config/pip/pip.conf', text: '[global]\nindex-url = https://pip.conf/simple\nextra-index-url =\n    https://extra-one/simple\n    https://extra-two/simple\ntimeout = 4\n' };
const REQS = { file: '/p/requirements.txt', text: '# pins\n-i https://req.index/simple  # the company mirror\n--extra-index-url=https://req.extra/simple\nnumpy==1.24.2\n' };
const PYPROJECT = {
  file: '/p/pyproject.toml',
  text: '[[tool.uv.index]]\nname = "corp"\nurl = "https://uv.corp/simple/"\ndefault = true\n\n[[tool.uv.index]]\nname = "torch"\nurl = "https://download.pytorch.org/whl/cpu"\nexplicit = true\n\n[tool.uv.sources]\ntorch = { index = "torch" }\n',
};

interface Case {
  name: string;
  inputs: Partial<IndexConfigInputs>;
  /** The search order, as "url (origin)". */
  order: string[];
  ignored?: string[];
}

const CASES: Case[] = [
  { name: 'nothing configured: PyPI', inputs: {}, order: ['https://pypi.org/simple (the default (PyPI))'] },
  { name: 'pip.conf: its index and extra indexes, in order', inputs: { pipFiles: [PIP_CONF] }, order: ['https://pip.conf/simple (/home/me/.config/pip/pip.conf)', 'https://extra-one/simple (/home/me/.config/pip/pip.conf)', 'https://extra-two/simple (/home/me/.config/pip/pip.conf)'] },
  { name: 'PIP_INDEX_URL over pip.conf; PIP_EXTRA_INDEX_URL before its extras', inputs: { env: { PIP_INDEX_URL: 'https://env/simple/', PIP_EXTRA_INDEX_URL: 'https://env-extra/simple' }, pipFiles: [PIP_CONF] }, order: ['https://env/simple (PIP_INDEX_URL)', 'https://env-extra/simple (PIP_EXTRA_INDEX_URL)', 'https://extra-one/simple (/home/me/.config/pip/pip.conf)', 'https://extra-two/simple (/home/me/.config/pip/pip.conf)'] },
  { name: 'UV_DEFAULT_INDEX over UV_INDEX_URL over PIP_INDEX_URL', inputs: { env: { UV_DEFAULT_INDEX: 'https://uv-default/simple', UV_INDEX_URL: 'https://uv-url/simple', PIP_INDEX_URL: 'https://pip/simple' } }, order: ['https://uv-default/simple (UV_DEFAULT_INDEX)'] },
  { name: 'a requirements file’s -i and --extra-index-url lines', inputs: { env: { PIP_INDEX_URL: 'https://pip/simple' }, requirements: [REQS] }, order: ['https://req.index/simple (/p/requirements.txt:2)', 'https://req.extra/simple (/p/requirements.txt:3)'] },
  { name: '--index-url given to anachron wins over everything', inputs: { indexUrl: 'http://127.0.0.1:1/simple', requirements: [REQS], env: { UV_DEFAULT_INDEX: 'https://uv/simple' } }, order: ['http://127.0.0.1:1/simple (--index-url)', 'https://req.extra/simple (/p/requirements.txt:3)'] },
  { name: '[[tool.uv.index]] default, the explicit one left to its sources', inputs: { pyproject: PYPROJECT }, order: ['https://uv.corp/simple (/p/pyproject.toml [[tool.uv.index]] corp)'] },
  { name: 'UV_INDEX named indexes come before the default, as uv searches them', inputs: { env: { UV_INDEX: 'first=https://first/simple https://second/simple', PIP_INDEX_URL: 'https://pip/simple' } }, order: ['https://first/simple (UV_INDEX)', 'https://second/simple (UV_INDEX)', 'https://pip/simple (PIP_INDEX_URL)'] },
  {
    name: 'Restricted Mode: what workspace files name is not used',
    inputs: { trusted: false, requirements: [REQS], pyproject: PYPROJECT, env: { PIP_INDEX_URL: 'https://pip/simple' } },
    order: ['https://pip/simple (PIP_INDEX_URL)'],
    ignored: ['/p/pyproject.toml [[tool.uv.index]]', '/p/requirements.txt:2 --index-url', '/p/requirements.txt:3 --extra-index-url'],
  },
];

describe('the index configuration of pip and uv', () => {
  for (const c of CASES) {
    test(c.name, () => {
      const config = resolveIndexConfig({ ...base, ...c.inputs });
      assert.deepEqual(config.searchOrder.map((s) => `${s.url} (${s.origin})`), c.order);
      if (c.ignored) assert.deepEqual(config.ignoredInRestrictedMode, c.ignored);
    });
  }

  test('[tool.uv.sources] sends a distribution to its named index only; pip.conf sets the timeout', () => {
    const config = resolveIndexConfig({ ...base, pyproject: PYPROJECT, pipFiles: [PIP_CONF] });
    assert.deepEqual(indexesFor(config, 'Torch').map((s) => s.url), ['https://download.pytorch.org/whl/cpu']);
    assert.equal(indexesFor(config, 'numpy')[0]!.url, 'https://uv.corp/simple');
    assert.equal(config.timeoutSeconds, 4);
  });

  test('requirements option lines: every spelling, comments stripped, the first -i wins', () => {
    const got = requirementsIndexOptions('--index-url https://a/simple\n-i=https://b/simple\n  --extra-index-url   https://c/simple # why\nrequests\n');
    assert.deepEqual(got, { indexUrl: { url: 'https://a/simple', line: 1 }, extra: [{ url: 'https://c/simple', line: 3 }] });
  });
});

describe('credentials and proxies', () => {
  test('netrc: machine, default, and tokens across lines', () => {
    const entries = parseNetrc('machine pkgs.corp login bot\n  password hunter2\ndefault login anon password none\n');
    assert.deepEqual(netrcCredentials(entries, 'pkgs.corp'), { login: 'bot', password: 'hunter2' });
    assert.deepEqual(netrcCredentials(entries, 'elsewhere'), { login: 'anon', password: 'none' });
  });

  test('credentials in an index URL go with its origin only; netrc for other hosts; never shown', () => {
    const store = new CredentialStore(parseNetrc('machine files.corp login f password p\n'));
    assert.equal(store.register('https://me:s%40cret@pkgs.corp/simple'), 'https://pkgs.corp/simple');
    assert.deepEqual(store.for('https://pkgs.corp/files/x.whl'), { login: 'me', password: 's@cret' });
    assert.equal(store.for('https://pkgs.corp:8443/files/x.whl'), undefined);
    assert.deepEqual(store.for('https://files.corp/x.whl'), { login: 'f', password: 'p' });
    assert.equal(displayUrl('https://me:pw@pkgs.corp/simple?token=abc&page=2'), 'https://pkgs.corp/simple?token=***&page=2');
    assert.equal(redactUrls('GET https://me:pw@pkgs.corp/simple/x/ failed'), 'GET https://pkgs.corp/simple/x/ failed');
  });

  test('HTTP(S)_PROXY and NO_PROXY as pip and curl read them', () => {
    const env = { HTTPS_PROXY: 'proxy.corp:3128', http_proxy: 'http://plain:8080', NO_PROXY: 'localhost,.internal,10.0.0.1:8443' };
    assert.equal(proxyFor(new URL('https://pypi.org/simple'), { env })?.href, 'http://proxy.corp:3128/');
    assert.equal(proxyFor(new URL('http://pypi.org/simple'), { env })?.href, 'http://plain:8080/');
    assert.equal(proxyFor(new URL('https://pkgs.internal/simple'), { env }), null);
    assert.equal(bypassesProxy(new URL('https://10.0.0.1:8443/'), env.NO_PROXY), true);
    assert.equal(bypassesProxy(new URL('https://10.0.0.1/'), env.NO_PROXY), false);
    assert.equal(proxyFor(new URL('https://pypi.org/simple'), { env: {}, proxy: 'http://pip-proxy:1' })?.href, 'http://pip-proxy:1/');
  });
});
