// The prompt contract between the task builder and the models: what renderPrompt writes, parsePrompt reads back.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  MASK_TOKEN,
  parsePrompt,
  PromptContractError,
  renderPrompt,
  validatePromptSpec,
  type ApiCPrompt,
  type PromptSpec,
} from '../server/src/eval/libevobench/prompt-contract.js';

const code = { prefix: 'import numpy as np\n\nx = np.arange(10)\ny = ', suffix: '\nprint(y)\n' };
const specs: PromptSpec[] = [
  { task: 'API-I', library: 'numpy', version: '1.24.2', module: 'numpy', description: 'Integrate along the given axis using the composite trapezoidal rule.' },
  { task: 'SR', library: 'numpy', version: '2.2.4', api: 'numpy.linalg.norm' },
  { task: 'API-C', level: 'L0', library: 'numpy', ...code },
  { task: 'API-C', level: 'L1', library: 'numpy', description: 'Compute the arithmetic mean along the specified axis.', ...code },
  { task: 'API-C', level: 'L2', library: 'numpy', version: '1.24.2', description: 'Compute the arithmetic mean.', ...code },
  { task: 'API-C', level: 'L3', library: 'numpy', version: '1.24.2', api: 'numpy.mean', ...code },
  { task: 'API-C', level: 'L3', library: 'numpy', version: '1.24.2', api: 'numpy.mean', description: 'Mean.', ...code },
];

describe('prompt contract', () => {
  test('every task and level renders to a system and a user message and parses back to the same spec', () => {
    for (const spec of specs) {
      const messages = renderPrompt(spec);
      assert.deepEqual(messages.map((m) => m.role), ['system', 'user']);
      assert.deepEqual(parsePrompt(messages), spec);
      assert.deepEqual(parsePrompt(messages[1]!.content), spec, 'the user message alone is enough');
    }
  });

  test('the user message holds the documented header lines and sections', () => {
    const [, user] = renderPrompt(specs[4]!);
    assert.equal(
      user!.content,
      [
        'Task: API-C',
        'Level: L2',
        'Library: numpy',
        'Version: 1.24.2',
        '',
        'Description:',
        '```text',
        'Compute the arithmetic mean.',
        '```',
        '',
        'Code:',
        '```python',
        '# requires: numpy==1.24.2',
        'import numpy as np',
        '',
        'x = np.arange(10)',
        `y = ${MASK_TOKEN}`,
        'print(y)',
        '',
        '```',
        '',
      ].join('\n'),
    );
    const [, apiI] = renderPrompt(specs[0]!);
    assert.match(apiI!.content, /^Task: API-I\nLibrary: numpy\nVersion: 1\.24\.2\nModule: numpy\n\nDescription:\n```text\n/);
  });

  test('levels withhold what they must: no version at L0/L1, no API name below L3', () => {
    for (const spec of specs) {
      if (spec.task !== 'API-C') continue;
      const user = renderPrompt(spec)[1]!.content;
      assert.equal(/Version:|# requires:/.test(user), spec.level === 'L2' || spec.level === 'L3', spec.level);
      assert.equal(/^API: /m.test(user), spec.level === 'L3', spec.level);
    }
    const bad: ApiCPrompt[] = [
      { task: 'API-C', level: 'L0', library: 'numpy', version: '1.0', ...code },
      { task: 'API-C', level: 'L1', library: 'numpy', ...code },
      { task: 'API-C', level: 'L2', library: 'numpy', description: 'd', ...code },
      { task: 'API-C', level: 'L2', library: 'numpy', version: '1.0', description: 'd', api: 'numpy.mean', ...code },
      { task: 'API-C', level: 'L3', library: 'numpy', version: '1.0', ...code },
      { task: 'API-C', level: 'L0', library: 'numpy', prefix: `x = ${MASK_TOKEN}`, suffix: '' },
    ];
    for (const spec of bad) assert.throws(() => validatePromptSpec(spec), PromptContractError, JSON.stringify(spec));
  });

  test('code and descriptions may hold backticks, blank lines and look-alike headers', () => {
    const spec: PromptSpec = {
      task: 'API-C',
      level: 'L1',
      library: 'numpy',
      description: 'Uses ```fences``` and\n\nCode:\n```\nnot a section\n```',
      prefix: 's = """\n```python\nTask: SR\n```\n"""\nimport numpy as np\nz = ',
      suffix: '',
    };
    assert.deepEqual(parsePrompt(renderPrompt(spec)), spec);
  });

  test('text that does not follow the contract is refused', () => {
    assert.throws(() => parsePrompt('What is numpy.mean?'), PromptContractError);
    assert.throws(() => parsePrompt('Task: SR\nLibrary: numpy\n'), /missing header Version/);
    assert.throws(() => parsePrompt('Task: XX\nLibrary: numpy\n'), /unknown task/);
    assert.throws(() => parsePrompt('Task: API-C\nLevel: L0\nLibrary: numpy\n\nCode:\n```python\nx = 1\n```\n'), /exactly once/);
  });
});
