// Open documents as the analysis reads them. LSP (and pip, and Python) end a line at a lone CR as at LF or CRLF, but
// tree-sitter and the line tables of the analysis count LF only, so a file with old Mac line ends was one long line:
// findings at line 0, fixes that found nothing to edit. Each version is kept as the client sent it (edits apply to
// its real text, so a CR followed by an inserted LF still joins into one CRLF), and read with every lone CR as LF:
// the same length and the same lines, so every offset and position stays what the client means.
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocumentContentChangeEvent, TextDocumentsConfiguration } from 'vscode-languageserver';
import { withLoneCrAsNewline } from '../core/manifests/index.js';

/** A document read with lone CRs as LF; `raw` is the client's text, which edits apply to. */
class LoneCrAsNewline implements TextDocument {
  private whole: string | undefined;
  constructor(readonly raw: TextDocument) {}
  get uri() {
    return this.raw.uri;
  }
  get languageId() {
    return this.raw.languageId;
  }
  get version() {
    return this.raw.version;
  }
  get lineCount() {
    return this.raw.lineCount;
  }
  getText(range?: Parameters<TextDocument['getText']>[0]): string {
    if (range) return withLoneCrAsNewline(this.raw.getText(range));
    return (this.whole ??= withLoneCrAsNewline(this.raw.getText()));
  }
  positionAt(offset: number) {
    return this.raw.positionAt(offset);
  }
  offsetAt(position: Parameters<TextDocument['offsetAt']>[0]) {
    return this.raw.offsetAt(position);
  }
  getLineRange(line: number) {
    return this.raw.getLineRange(line);
  }
  getEOLCharacters(line: number) {
    return this.raw.getEOLCharacters(line);
  }
}

export const loneCrAsNewlineDocuments: TextDocumentsConfiguration<TextDocument> = {
  create: (uri, languageId, version, content) => new LoneCrAsNewline(TextDocument.create(uri, languageId, version, content)),
  update: (document, changes: TextDocumentContentChangeEvent[], version) => new LoneCrAsNewline(TextDocument.update((document as unknown as LoneCrAsNewline).raw, changes, version)),
};
