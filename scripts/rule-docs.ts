// Writes what is generated from the rules (server/src/core/rules/): docs/rules/<code>.md, the README's table of
// finding codes and the codes in package.json's settings. `npm run rule-docs`; test/rule-docs.test.ts checks them.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rulePages, withReadmeRulesTable, withSettingsCodes } from '../server/src/report/rule-pages.js';

const root = join(__dirname, '..');
const folder = join(root, 'docs', 'rules');
const pages = rulePages();
for (const name of readdirSync(folder)) if (name.endsWith('.md') && !pages.has(name)) rmSync(join(folder, name));
for (const [name, text] of pages) writeFileSync(join(folder, name), text);
const readme = join(root, 'README.md');
writeFileSync(readme, withReadmeRulesTable(readFileSync(readme, 'utf8')));
const pkg = join(root, 'package.json');
writeFileSync(pkg, withSettingsCodes(readFileSync(pkg, 'utf8')));
console.log(`rule-docs: ${pages.size} pages in docs/rules/, the README's table of codes, the settings' codes in package.json`);
