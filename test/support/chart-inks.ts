// What a report chart must hold to follow the page's theme: its background and every text drawn in an ink (a class
// the report page maps to the editor's --vscode-* colours), never only in a fixed colour that a dark theme would hide.
import assert from 'node:assert/strict';
import { reportHtml } from '../../server/src/eval/reports/html.js';

const page = reportHtml('inks', [], '');

export function assertThemedInks(svg: string, what: string): void {
  const paper = /<svg[^>]*>\s*<title>[^<]*<\/title>\s*<rect ([^>]*)\/>/.exec(svg);
  assert.ok(paper && /class="fill-paper"/.test(paper[1]!), `${what}: its background is the page's (fill-paper)`);
  const texts = [...svg.matchAll(/<text\b([^>]*)>([^<]*)/g)];
  assert.ok(texts.length > 0, `${what}: has text`);
  for (const [, attrs, content] of texts) {
    assert.match(attrs!, /\bclass="fill-[A-Za-z]+"/, `${what}: the text ${JSON.stringify(content)} has an ink`);
  }
  for (const [, ink] of svg.matchAll(/\bclass="((?:fill|stroke)-[A-Za-z]+)"/g)) {
    assert.ok(page.includes(`svg .${ink} {`), `${what}: the page styles ${ink}`);
  }
}
