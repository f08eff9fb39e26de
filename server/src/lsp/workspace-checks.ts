// Checking files that are not open (anachron/checkFiles, "Check Workspace"): their diagnostics are published from
// their text on disk, kept when an open one of them is closed (as Pylance's workspace mode does), and refreshed in
// the background when settings or matrices change.
import { statSync } from 'node:fs';
import type { CancellationToken, Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AnalysisContext } from '../core/analyze.js';
import { readSourceText } from '../workspace/bounded-read.js';
import { uriToPath } from '../workspace/file-uri.js';
import type { DocumentAnalyses } from './document-analyses.js';
import type { CheckFilesResult } from './protocol.js';
import { findingToDiagnostic, type DiagnosticPlaces } from './to-diagnostic.js';

/** Files larger than this are not checked from disk (generated code, data dumps). */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

export interface WorkspaceCheckParts {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  analyses(): DocumentAnalyses | undefined;
  contextFor(file: string): AnalysisContext;
  placesFor(uri: string, file: string): DiagnosticPlaces;
}

export class WorkspaceChecks {
  /** Files checked from disk and not open: re-checked when settings change. */
  private readonly checkedFromDisk = new Set<string>();
  /** Every file a workspace check covered, open then or not: closing one publishes its text on disk again, not nothing. */
  private readonly inWorkspaceCheck = new Set<string>();
  private recheckTimer: NodeJS.Timeout | undefined;

  constructor(private readonly parts: WorkspaceCheckParts) {
    parts.documents.onDidOpen((e) => this.checkedFromDisk.delete(e.document.uri));
  }

  /** Checks the files in order, letting cancellation and other messages in between them. */
  async check(uris: readonly string[], token: CancellationToken): Promise<CheckFilesResult> {
    const result: CheckFilesResult = { checked: 0, findings: 0, failed: [] };
    for (const uri of uris) {
      if (token.isCancellationRequested) break;
      const file = uriToPath(uri);
      if (!file) continue;
      try {
        const open = this.parts.documents.get(uri);
        this.inWorkspaceCheck.add(uri);
        if (open) {
          // Open documents have their own, live diagnostics; count them without publishing over them.
          result.findings += this.checkText(uri, file, open.getText(), false);
        } else {
          if (statSync(file).size > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES / 1024 / 1024} MB; not checked`);
          result.findings += this.checkText(uri, file, readSourceText(file), true);
          this.checkedFromDisk.add(uri);
        }
        result.checked++;
      } catch (e) {
        result.failed.push({ uri, reason: (e as Error).message });
      }
      await new Promise((r) => setImmediate(r));
    }
    return result;
  }

  /** Re-checks, in the background, the closed files a workspace check published diagnostics for. */
  recheckSoon(): void {
    clearTimeout(this.recheckTimer);
    this.recheckTimer = setTimeout(async () => {
      for (const uri of [...this.checkedFromDisk]) {
        const file = uriToPath(uri);
        if (!file || this.parts.documents.get(uri)) continue;
        try {
          this.checkText(uri, file, readSourceText(file), true);
        } catch {
          this.checkedFromDisk.delete(uri);
        }
        await new Promise((r) => setImmediate(r));
      }
    }, 200);
  }

  /** A document was closed: true when the diagnostics of its text on disk were published, false when the caller should clear them. */
  closed(uri: string): boolean {
    const file = uriToPath(uri);
    if (!file || !this.inWorkspaceCheck.has(uri)) return false;
    try {
      if (statSync(file).size > MAX_FILE_BYTES) return false;
      this.checkText(uri, file, readSourceText(file), true);
      this.checkedFromDisk.add(uri);
      return true;
    } catch {
      this.inWorkspaceCheck.delete(uri);
      return false;
    }
  }

  /** Checks a text as the file's; publishes its diagnostics when asked; returns how many there are. */
  private checkText(uri: string, file: string, text: string, publish: boolean): number {
    const analyses = this.parts.analyses();
    if (!analyses) throw new Error('the Python parser is not loaded');
    const places = this.parts.placesFor(uri, file);
    const diagnostics = analyses.findingsOfText(text, this.parts.contextFor(file)).map((f) => findingToDiagnostic(f, places));
    if (publish) void this.parts.connection.sendDiagnostics({ uri, diagnostics });
    return diagnostics.length;
  }
}
