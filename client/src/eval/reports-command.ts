// "anachron: Open Benchmark Reports": the report pages `anachron bench run|merge|report` writes (report.html beside
// results.json or comparison.json) anywhere in the workspace, and those of runs started from the editor into the
// extension's global storage, newest first, shown in a webview without scripts.
import { readdirSync, statSync } from 'node:fs';
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

/**
 * The page as a webview may show it: no scripts, styles inline only. Its colours are the editor's theme: the report's
 * own stylesheet reads the --vscode-* variables the webview defines (charts included); a page that sets none gets the
 * theme's text and background from this first rule, which its own rules override.
 */
function sandboxed(html: string): string {
  const head = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:;"><style>body { color: var(--vscode-foreground); background: var(--vscode-editor-background); } img, svg { max-width: 100%; height: auto; }</style>`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (m) => `${m}\n${head}`) : `${head}\n${html}`;
}

/** Shows one report page in a webview (scripts off, nothing loaded from outside the page). */
export async function showBenchmarkReport(file: string, title: string): Promise<void> {
  const html = await readFile(file, 'utf8');
  const panel = window.createWebviewPanel('anachron.benchReport', title, ViewColumn.Active, { enableScripts: false, localResourceRoots: [] });
  panel.webview.html = sandboxed(html);
}

/** report.html of each run folder directly under the given folders (runs started from the editor). */
function reportsUnder(roots: readonly string[]): Uri[] {
  const out: Uri[] = [];
  for (const root of roots) {
    let names: string[] = [];
    try {
      names = readdirSync(root);
    } catch {
      continue;
    }
    for (const name of names) {
      const file = path.join(root, name, 'report.html');
      try {
        if (statSync(file).isFile()) out.push(Uri.file(file));
      } catch {
        // no report yet
      }
    }
  }
  return out;
}

/** `extraRoots`: folders whose run folders are listed too (the extension's global storage). */
export async function openBenchmarkReports(extraRoots: readonly string[] = []): Promise<void> {
  const found = await workspace.findFiles('**/report.html', '**/node_modules/**', 500);
  const seen = new Set(found.map((u) => u.fsPath));
  found.push(...reportsUnder(extraRoots).filter((u) => !seen.has(u.fsPath)));
  const reports: Report[] = [];
  for (const uri of found) {
    const kind = reportKind(uri);
    if (kind) reports.push({ uri, kind, modified: statSync(uri.fsPath).mtimeMs });
  }
  if (reports.length === 0) {
    void window.showInformationMessage(
      'anachron: no benchmark reports yet. Run "anachron: Run Benchmark…", or `npx anachron bench run …` (it writes report.html beside results.json; open its folder here to see it).',
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
  await showBenchmarkReport(picked.report.uri.fsPath, `Benchmark: ${picked.label}`);
}
