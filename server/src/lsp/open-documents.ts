// Open documents found by path. Editors spell one file's URI in several ways (workspace/file-uri.ts), so looking an
// open manifest up by a URI built from its path would miss it on Windows; these compare paths instead.
import type { TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { pathKey, pathToUri, uriToPath } from '../workspace/file-uri.js';

export function openDocumentAt(documents: TextDocuments<TextDocument>, file: string): TextDocument | undefined {
  const key = pathKey(file);
  return documents.all().find((d) => {
    const path = uriToPath(d.uri);
    return path !== undefined && pathKey(path) === key;
  });
}

/** The URI to name a file by in a reply: the open document's own, else VS Code's spelling of the path. */
export function uriOfFile(documents: TextDocuments<TextDocument>, file: string): string {
  return openDocumentAt(documents, file)?.uri ?? pathToUri(file);
}
