// What is generated from the rules (core/rules/): each code's page (docs/rules/<code>.md), the README's table of
// codes, and the lists of codes in the editor's settings (package.json). scripts/rule-docs.ts writes them;
// test/rule-docs.test.ts fails when one is stale. Pure: rules in, text out.
import { ALL_CODES, RULE_PAGES } from '../core/rules/index.js';
import type { RulePage } from '../core/rules/rule.js';

export function renderRulePage(rule: RulePage): string {
  const { docs } = rule;
  const sections = [`# ${rule.code}`, `**What**: ${docs.what}`, `**Why it matters**: ${docs.why}`];
  if (docs.severity) sections.push(`**Severity**: ${docs.severity}`);
  if (docs.example) sections.push(`**Example**${docs.example.context ? ` (${docs.example.context})` : ''}:\n\n\`\`\`python\n${docs.example.code}\n\`\`\``);
  sections.push(`**Fix**: ${docs.fix}`);
  return sections.join('\n\n') + '\n';
}

/** The pages docs/rules/ holds, by file name. */
export function rulePages(): Map<string, string> {
  return new Map(RULE_PAGES.map((rule) => [`${rule.code}.md`, renderRulePage(rule)]));
}

export const README_RULES_START = '<!-- finding codes: generated from server/src/core/rules/ by npm run rule-docs -->';
export const README_RULES_END = '<!-- end of finding codes -->';

/** The README's table of finding codes, between its markers. */
export function readmeRulesTable(): string {
  const rows = RULE_PAGES.filter((r) => (ALL_CODES as readonly string[]).includes(r.code)).map((r) => `| \`${r.code}\` | ${r.severityNote} | ${r.meaning} |`);
  return [README_RULES_START, '| code | severity | meaning |', '|---|---|---|', ...rows, README_RULES_END].join('\n');
}

/** The README with its table of codes replaced; throws when the markers are missing. */
export function withReadmeRulesTable(readme: string): string {
  const start = readme.indexOf(README_RULES_START);
  const end = readme.indexOf(README_RULES_END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the markers of the finding codes' table (${README_RULES_START})`);
  return readme.slice(0, start) + readmeRulesTable() + readme.slice(end + README_RULES_END.length);
}

const SEVERITY_SETTING = { type: 'string', enum: ['error', 'warning', 'information', 'hint', 'off'] };

/**
 * package.json with the finding codes in the settings that name them (anachron.severity's properties,
 * anachron.ignore's enum), everything else as it was.
 */
export function withSettingsCodes(packageJson: string): string {
  const pkg = JSON.parse(packageJson) as { contributes: { configuration: { properties: Record<string, Record<string, unknown>> } } };
  const properties = pkg.contributes.configuration.properties;
  const severity = properties['anachron.severity'];
  const ignore = properties['anachron.ignore'];
  if (!severity || !ignore) throw new Error('package.json lacks the anachron.severity or anachron.ignore setting');
  severity.properties = Object.fromEntries(ALL_CODES.map((code) => [code, SEVERITY_SETTING]));
  ignore.items = { ...(ignore.items as object), enum: [...ALL_CODES] };
  return JSON.stringify(pkg, null, 2) + '\n';
}
