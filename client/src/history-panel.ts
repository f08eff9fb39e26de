// "anachron: Show API History": one webview panel that draws an API's timeline across the tracked versions from the
// matrix (media/history.js and media/history.css), and looks up other APIs from its search box and related links.
import { randomBytes } from 'node:crypto';
import { Uri, ViewColumn, window, type Disposable, type ExtensionContext, type WebviewPanel } from 'vscode';
import type { HistoryParams, HistoryResponse } from '../../server/src/lsp/protocol.js';

export type HistoryLookup = (params: HistoryParams) => Promise<HistoryResponse | null | undefined>;

export class HistoryPanel implements Disposable {
  private panel: WebviewPanel | undefined;
  /** The document the history was asked from: its pin marks the timeline. */
  private uri: string | undefined;
  /** The last message, sent again when the page says it is ready (messages before that can be lost). */
  private last: unknown;

  constructor(
    private readonly context: ExtensionContext,
    private readonly lookup: HistoryLookup,
  ) {}

  async show(params: HistoryParams): Promise<boolean> {
    const response = await this.lookup(params);
    if (!response) return false;
    this.uri = params.uri ?? this.uri;
    const panel = this.ensurePanel();
    panel.title = 'error' in response ? 'anachron: API history' : `History: ${response.api}`;
    this.last = { type: 'history', response, query: params.api ?? null };
    await panel.webview.postMessage(this.last);
    panel.reveal(panel.viewColumn ?? ViewColumn.Beside, true);
    return true;
  }

  private ensurePanel(): WebviewPanel {
    if (this.panel) return this.panel;
    const media = Uri.joinPath(this.context.extensionUri, 'media');
    const panel = window.createWebviewPanel('anachron.history', 'anachron: API history', { viewColumn: ViewColumn.Beside, preserveFocus: true }, { enableScripts: true, localResourceRoots: [media] });
    const nonce = randomBytes(16).toString('base64');
    const asset = (name: string) => panel.webview.asWebviewUri(Uri.joinPath(media, name)).toString();
    panel.webview.html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${panel.webview.cspSource}; img-src ${panel.webview.cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('history.css')}">
<title>anachron: API history</title>
</head>
<body>
<form id="search"><input id="query" type="text" placeholder="numpy.trapezoid" aria-label="API to look up" spellcheck="false"><button type="submit">Show</button></form>
<main id="content"><p class="muted">Loading…</p></main>
<script nonce="${nonce}" src="${asset('history.js')}"></script>
</body>
</html>`;
    panel.webview.onDidReceiveMessage((message: { type: string; api?: string }) => {
      if (message.type === 'ready' && this.last) void panel.webview.postMessage(this.last);
      if (message.type === 'lookup' && message.api) void this.show({ api: message.api, uri: this.uri });
    });
    panel.onDidDispose(() => {
      this.panel = undefined;
    });
    this.panel = panel;
    return panel;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
