// "anachron: Open Benchmark Reports": the report pages `anachron bench run|merge|report` writes (report.html beside
// results.json or comparison.json) anywhere in the workspace, newest first, shown in a webview without scripts.
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { Uri, ViewColumn, window, workspace, type QuickPickItem } from 'vscode';

interface Report {
  uri: Uri;
  kind: 'run' | 'comparison';
  modified: number;
}

function reportKind(file: Uri): Report['kind'] | undefined {
  const dir = path.dirname(file.fsPath);
  const has = (name: string) => {
    try {
      return statSync(path.join(dir, name)).isFile();
    } catch {
      return false;
    }
  };
  return has('results.json') ? 'run' : has('comparison.json') ? 'comparison' : undefined;
}

/** The page as a webview may show it: no scripts, styles inline only, on the white the report was drawn for. */
function sandboxed(html: string): string {
  const head = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:;"><style>html, body { background: #fff !important; color: #222 !important; } th, td, figcaption { color: #222; } a { color: #0b57d0; }</style>`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (m) => `${m}\n${head}`) : `${head}\n${html}`;
}

export async function openBenchmarkReports(): Promise<void> {
  const found = await workspace.findFiles('**/report.html', '**/node_modules/**', 500);
  const reports: Report[] = [];
  for (const uri of found) {
    const kind = reportKind(uri);
    if (kind) reports.push({ uri, kind, modified: statSync(uri.fsPath).mtimeMs });
  }
  if (reports.length === 0) {
    void window.showInformationMessage(
      'anachron: no benchmark reports in this workspace. `npx anachron bench run …` writes one (report.html beside results.json); open its folder here to see it.',
    );
    return;
  }
  reports.sort((a, b) => b.modified - a.modified);
  type Item = QuickPickItem & { report: Report };
  const items: Item[] = reports.map((r) => ({
    label: workspace.asRelativePath(path.dirname(r.uri.fsPath)),
    description: r.kind === 'run' ? 'benchmark run' : 'comparison of runs',
    detail: `written ${new Date(r.modified).toLocaleString()}`,
    report: r,
  }));
  const picked = reports.length === 1 ? items[0] : await window.showQuickPick(items, { title: 'anachron: benchmark reports', placeHolder: 'Which report?', matchOnDescription: true });
  if (!picked) return;
  const html = await readFile(picked.report.uri.fsPath, 'utf8');
  const panel = window.createWebviewPanel('anachron.benchReport', `Benchmark: ${picked.label}`, ViewColumn.Active, { enableScripts: false, localResourceRoots: [] });
  panel.webview.html = sandboxed(html);
}
