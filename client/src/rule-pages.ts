// The rule page a diagnostic's code links to (docs/rules/CODE.md, shipped with the extension: the language server's
// codeDescription.href is its file URI) is shown rendered, in the Markdown preview, not as raw text (issue 16,
// point 9): when an editor opens one, the preview takes that editor's place.
import * as path from 'node:path';
import { commands, TabInputText, window, type Disposable } from 'vscode';

/** Whether `file` is a rule page: a Markdown file directly in `folder`. */
export function isRulePage(file: string, folder: string): boolean {
  const rel = path.relative(folder, file);
  return rel.endsWith('.md') && !rel.startsWith('..') && !path.isAbsolute(rel) && !rel.includes(path.sep);
}

export function showRulePagesRendered(extensionPath: string): Disposable {
  const folder = path.join(extensionPath, 'docs', 'rules');
  return window.onDidChangeActiveTextEditor(async (editor) => {
    const uri = editor?.document.uri;
    if (!uri || uri.scheme !== 'file' || !isRulePage(uri.fsPath, folder)) return;
    const raw = window.tabGroups.activeTabGroup.activeTab;
    await commands.executeCommand('markdown.showPreview', uri);
    if (raw && raw.input instanceof TabInputText && raw.input.uri.toString() === uri.toString()) await window.tabGroups.close(raw);
  });
}
