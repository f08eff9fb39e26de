import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { exactVersionOf, parseCommandLinePin, parseRequirementsTxt } from '../server/src/core/pins.js';

describe('requirements.txt', () => {
  test('reads exact pins, ranges and bare names with their lines', () => {
    const { pins, problems } = parseRequirementsTxt(
      ['# tools', 'numpy==1.24.2', 'SciPy >= 1.10, <1.12  # range', 'requests', 'Torch==1.13.1+cu117 ; python_version >= "3.8"'].join('\n'),
      'requirements.txt',
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(
      pins.map((p) => [p.distribution, p.specifier, p.exactVersion, p.origin.line]),
      [
        ['numpy', '==1.24.2', '1.24.2', 2],
        ['scipy', '>= 1.10, <1.12', null, 3],
        ['requests', '', null, 4],
        ['torch', '==1.13.1+cu117', '1.13.1+cu117', 5],
      ],
    );
  });

  test('joins continuation lines, drops hashes and skips options, editables, URLs and paths', () => {
    const text = [
      '--index-url https://example.invalid/simple',
      '-r base.txt',
      '-e ./local-package',
      './wheels/thing.whl',
      'git+https://example.invalid/x.git#egg=x',
      'numpy==1.21.6 \\',
      '    --hash=sha256:aaaa \\',
      '    --hash=sha256:bbbb',
      'pkg @ https://example.invalid/pkg.whl',
    ].join('\n');
    const { pins, problems } = parseRequirementsTxt(text, 'r.txt');
    assert.deepEqual(problems, []);
    assert.deepEqual(pins.map((p) => [p.distribution, p.exactVersion, p.origin.line]), [['numpy', '1.21.6', 6], ['pkg', null, 9]]);
  });

  test('a malformed line is a problem on that line and the rest still counts', () => {
    const { pins, problems } = parseRequirementsTxt('numpy=1.24\nscipy==1.10.1\n', 'requirements.txt');
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.line, 1);
    assert.match(problems[0]!.message, /not a valid PEP 440 version specifier/);
    assert.deepEqual(pins.map((p) => p.distribution), ['scipy']);
  });

  test('only single-version specifiers are exact', () => {
    assert.equal(exactVersionOf('==1.24.2'), '1.24.2');
    assert.equal(exactVersionOf('===1.24.2'), '1.24.2');
    assert.equal(exactVersionOf('==1.24.*'), null);
    assert.equal(exactVersionOf('>=1.24'), null);
    assert.equal(exactVersionOf('==1.24,<2'), null);
  });

  test('command-line pins are PEP 508 requirements', () => {
    const pin = parseCommandLinePin('NumPy==2.2.4');
    assert.ok(!('error' in pin));
    assert.equal(pin.distribution, 'numpy');
    assert.equal(pin.origin.file, 'command line');
    assert.ok('error' in parseCommandLinePin('numpy==not a version'));
  });
});
