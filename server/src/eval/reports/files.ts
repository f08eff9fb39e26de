// The files of a benchmark report, the same for every suite: the results as JSON, the CSV tables, the Markdown
// tables, each figure's SVG, and report.html showing the figures and the tables.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reportHtml, type ReportFigure } from './html.js';

export interface ReportFiles {
  /** The JSON file (results.json, comparison.json) and what it holds. */
  json: { file: string; value: unknown };
  /** CSV files by name. */
  csv: Record<string, string>;
  /** tables.md, which report.html shows too. */
  markdown: string;
  figures: readonly ReportFigure[];
  /** report.html's title. */
  title: string;
}

/** Writes the files into `dir` (created when missing); returns their names. */
export function writeReportFiles(dir: string, report: ReportFiles): string[] {
  const files: Record<string, string> = {
    [report.json.file]: JSON.stringify(report.json.value, null, 2) + '\n',
    ...report.csv,
    'tables.md': report.markdown,
    ...Object.fromEntries(report.figures.map((f) => [f.file, f.svg])),
    'report.html': reportHtml(report.title, report.figures, report.markdown),
  };
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return Object.keys(files);
}
