// What is generated from the rules (server/src/core/rules/) is what the repository holds: a page per code in
// docs/rules/ and no other, the README's table of codes, the codes in the editor's settings. Run `npm run rule-docs`
// after changing a rule.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ALL_CODES, FINDING_RULES, RULE_PAGES } from '../server/src/core/rules/index.js';
import { rulePages, withReadmeRulesTable, withSettingsCodes } from '../server/src/report/rule-pages.js';

const root = join(__dirname, '..');
const stale = 'stale: run `npm run rule-docs`';

test('docs/rules/ holds exactly the generated page of every code', () => {
  const pages = rulePages();
  const folder = join(root, 'docs', 'rules');
  assert.deepEqual(readdirSync(folder).filter((n) => n.endsWith('.md')).sort(), [...pages.keys()].sort(), stale);
  for (const [name, text] of pages) assert.equal(readFileSync(join(folder, name), 'utf8'), text, `docs/rules/${name} is ${stale}`);
});

test("the README's table of finding codes and the settings' codes are generated", () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  assert.equal(withReadmeRulesTable(readme), readme, `README.md's table of codes is ${stale}`);
  const pkg = readFileSync(join(root, 'package.json'), 'utf8');
  assert.equal(withSettingsCodes(pkg), pkg, `package.json's finding codes are ${stale}`);
});

test('every rule is complete: a PascalCase name, texts, and a code in kebab case', () => {
  assert.deepEqual(FINDING_RULES.map((r) => r.code), [...ALL_CODES]);
  for (const rule of RULE_PAGES) {
    assert.match(rule.code, /^[a-z]+(-[a-z]+)*$/, rule.code);
    assert.equal(rule.name, rule.code.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join(''));
    for (const text of [rule.summary, rule.description, rule.meaning, rule.severityNote, rule.docs.what, rule.docs.why, rule.docs.fix]) assert.ok(text.trim().length > 0, rule.code);
    for (const line of readFileSync(join(root, 'docs', 'rules', `${rule.code}.md`), 'utf8').split('\n')) assert.ok(line.length <= 130, `${rule.code}: a line of ${line.length} characters`);
  }
});
