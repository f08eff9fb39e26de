// The hover of a callable whose **kwargs the extractors resolved (issue 19, class 3) says what that **kwargs takes at
// the pin, which the signature alone (`plot(x, y, fmt='-', **kwargs)`) does not show; an unresolved one says nothing
// more. On the synthetic history of the fixtures (test/fixtures/matrices/fwdlib.synthetic.json), over a real session.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileUri, LspSession } from './support/lsp-session.js';
import { buildHistoryMatrices, readSyntheticHistory } from './support/synthetic-history.js';

const matrices = buildHistoryMatrices(readSyntheticHistory(join(__dirname, 'fixtures', 'matrices', 'fwdlib.synthetic.json')));
const SOURCE = 'import fwdlib\nfwdlib.plot([1], [2], color="r")\nfwdlib.read_table("a.csv", sep=";")\n';

describe('hover on a forwarded **kwargs', () => {
  const project = mkdtempSync(join(tmpdir(), 'anachron-forwarded-hover-'));
  const file = join(project, 'main.py');
  const session = new LspSession({ ANACHRON_MATRICES: matrices });
  const hoverAt = async (line: number, character: number) =>
    ((await session.connection.sendRequest('textDocument/hover', { textDocument: { uri: fileUri(file) }, position: { line, character } })) as { contents: { value: string } }).contents.value;

  before(async () => {
    writeFileSync(join(project, 'requirements.txt'), 'fwdlib==2.0\n');
    writeFileSync(file, SOURCE);
    await session.initialize(project);
    await session.open(file, SOURCE);
    // the timeline hover on every reference, not only flagged ones (anachron.hover)
    await session.connection.sendNotification('anachron/didChangeEditorSettings', { folders: [{ folder: fileUri(project), settings: { hover: 'always' } }] });
  });
  after(() => session.close());

  test('a resolved **kwargs lists the keywords it takes at the pin', async () => {
    const value = await hoverAt(1, 9);
    assert.match(value, /At 2\.0: `plot\(x, y, fmt='-', \*\*kwargs\)`\n`\*\*kwargs` takes: `alpha`, `color`, `label`, `linewidth`\./);
  });

  test('an unresolved one adds nothing', async () => {
    const value = await hoverAt(2, 10);
    assert.match(value, /At 2\.0: `read_table\(path, \*\*kwargs\)`/);
    assert.doesNotMatch(value, /takes:/);
  });
});
