// anachron for AI assistants, in the editor: the language model tools anachron_lookup and anachron_check (Copilot's
// agent mode, `#anachronLookup` in chat), the @anachron chat participant (/check, /explain, /migrate), "anachron:
// Review AI Suggestion" (the selection, the clipboard or the working tree's changes, with the fixes), "anachron: Look
// Up API for Agents…" (the tool's answer, as an agent receives it) and "anachron: Ask @anachron…" (the participant's
// answers where VS Code has no chat). Every answer comes from the server (lsp/agent-requests.ts), rendered there.
import * as vscode from 'vscode';
import {
  CheckSnippetRequest,
  LookupRequest,
  MigrateRequest,
  ReviewChangesRequest,
  type AgentFinding,
  type AgentTextEdit,
  type CheckSnippetParams,
  type CheckSnippetResponse,
  type CheckSnippetResult,
  type LookupParams,
  type LookupResponse,
  type MigrateResponse,
  type ReviewChangesResponse,
} from '../../server/src/lsp/protocol.js';
import type { AnachronSession } from './session.js';
import { lmTools, resultText, textToolResult } from './lm-tools-api.js';

export const LOOKUP_TOOL = 'anachron_lookup';
export const CHECK_TOOL = 'anachron_check';
export const PARTICIPANT_ID = 'anachron.chat';
const ANSWER_SCHEME = 'anachron-answer';

/** Where the code of a check came from. */
export type CodeSource = 'prompt' | 'selection' | 'last edit' | 'clipboard' | 'changes';

interface Snippet {
  source: CodeSource;
  code: string;
  /** The document it is part of (a selection, the last edit): its pins and imports apply. */
  uri?: vscode.Uri;
  /** 0-based first line in that document (whole lines are taken). */
  startLine?: number;
}

/** The most recent edit of a Python file (typed, pasted or inserted by an assistant), in whole lines. */
class LastEdit implements vscode.Disposable {
  private last: { uri: vscode.Uri; start: number; end: number; at: number } | undefined;
  private readonly subscription: vscode.Disposable;

  constructor() {
    this.subscription = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.languageId !== 'python' || e.document.uri.scheme !== 'file' || e.contentChanges.length === 0) return;
      let start = Infinity;
      let end = -1;
      for (const c of e.contentChanges) {
        start = Math.min(start, c.range.start.line);
        end = Math.max(end, c.range.start.line + c.text.split('\n').length - 1);
      }
      this.last = { uri: e.document.uri, start, end: Math.min(end, e.document.lineCount - 1), at: Date.now() };
    });
  }

  snippet(): Snippet | undefined {
    if (!this.last || Date.now() - this.last.at > 30 * 60_000) return undefined;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === this.last!.uri.toString());
    if (!doc) return undefined;
    const end = Math.min(this.last.end, doc.lineCount - 1);
    const code = doc.getText(new vscode.Range(this.last.start, 0, end, doc.lineAt(end).text.length));
    return code.trim() ? { source: 'last edit', code, uri: doc.uri, startLine: this.last.start } : undefined;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

/** Read-only Markdown documents for answers, shown in the Markdown preview. */
class AnswerView implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private count = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '';
  }

  async show(title: string, markdown: string): Promise<void> {
    const uri = vscode.Uri.from({ scheme: ANSWER_SCHEME, path: `/${++this.count}/${title.replace(/[^\w.-]+/g, '-')}.md` });
    this.texts.set(uri.path, `# ${title}\n\n${markdown}\n`);
    this.changed.fire(uri);
    try {
      await vscode.commands.executeCommand('markdown.showPreview', uri);
    } catch {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function activePythonEditor(): vscode.TextEditor | undefined {
  const editor = vscode.window.activeTextEditor;
  return editor && editor.document.languageId === 'python' && editor.document.uri.scheme === 'file' ? editor : undefined;
}

/** The selection of the active Python editor, widened to whole lines; undefined when nothing is selected. */
function selectionSnippet(): Snippet | undefined {
  const editor = activePythonEditor();
  if (!editor || editor.selection.isEmpty) return undefined;
  const { start, end } = editor.selection;
  const last = end.character === 0 && end.line > start.line ? end.line - 1 : end.line;
  const code = editor.document.getText(new vscode.Range(start.line, 0, last, editor.document.lineAt(last).text.length));
  return code.trim() ? { source: 'selection', code, uri: editor.document.uri, startLine: start.line } : undefined;
}

async function clipboardSnippet(): Promise<Snippet | undefined> {
  const text = await vscode.env.clipboard.readText();
  return text.trim() ? { source: 'clipboard', code: text, ...(activePythonEditor() ? { uri: activePythonEditor()!.document.uri } : {}) } : undefined;
}

/** Code written in a chat prompt: a fenced block, or the whole prompt when it reads like Python. */
function promptCode(prompt: string): string | undefined {
  const fenced = /```[\w-]*\n([\s\S]*?)```/.exec(prompt);
  if (fenced) return fenced[1];
  return /(^|\n)\s*(import |from \S+ import |\w+\s*=|\w[\w.]*\()/.test(prompt) ? prompt : undefined;
}

function isError<T extends object>(r: T | { error: string } | undefined): r is { error: string } {
  return !!r && 'error' in r;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function lspRange(e: AgentTextEdit, lineOffset: number): vscode.Range {
  return new vscode.Range(e.range.start.line + lineOffset, e.range.start.character, e.range.end.line + lineOffset, e.range.end.character);
}

export class AgentFeatures implements vscode.Disposable {
  private readonly lastEdit = new LastEdit();
  readonly answers = new AnswerView();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly anachron: AnachronSession) {
    this.disposables.push(this.lastEdit, this.answers, vscode.workspace.registerTextDocumentContentProvider(ANSWER_SCHEME, this.answers));
  }

  /** Registers the tools, the participant and the commands; what this VS Code lacks is skipped and logged. */
  register(context: vscode.ExtensionContext): void {
    const tools = lmTools();
    if (tools) {
      this.disposables.push(
        tools.registerTool<Record<string, unknown>>(LOOKUP_TOOL, {
          prepareInvocation: (options) => ({ invocationMessage: `anachron: looking up ${String(options.input.api ?? options.input.description ?? 'an API')} at the project's pins` }),
          invoke: async (options) => textToolResult(await this.lookupText(options.input)),
        }),
        tools.registerTool<Record<string, unknown>>(CHECK_TOOL, {
          prepareInvocation: () => ({ invocationMessage: "anachron: checking the code at the project's pins" }),
          invoke: async (options) => textToolResult((await this.checkToolInput(options.input)).text),
        }),
      );
      this.anachron.log.info(`agent tools: ${LOOKUP_TOOL} and ${CHECK_TOOL} registered with vscode.lm`);
    } else this.anachron.log.info(`agent tools: this VS Code (${vscode.version}) has no language model tool API (1.95+): ${LOOKUP_TOOL} and ${CHECK_TOOL} are not offered`);

    const chat = (vscode as unknown as { chat?: Partial<typeof vscode.chat> }).chat;
    if (typeof chat?.createChatParticipant === 'function') {
      const participant = chat.createChatParticipant(PARTICIPANT_ID, (request, _ctx, stream, token) => this.handleChat(request, stream, token));
      participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
      this.disposables.push(participant);
      this.anachron.log.info('chat participant @anachron registered');
    } else this.anachron.log.info(`this VS Code (${vscode.version}) has no chat participant API: @anachron is not offered; "anachron: Ask @anachron…" gives the same answers`);

    context.subscriptions.push(
      vscode.commands.registerCommand('anachron.reviewSuggestion', (args?: { source?: CodeSource | 'diff' }) => this.review(args?.source)),
      vscode.commands.registerCommand('anachron.lookupApi', (api?: unknown) => this.lookupCommand(typeof api === 'string' ? api : undefined)),
      vscode.commands.registerCommand('anachron.askParticipant', (question?: unknown) => this.askCommand(typeof question === 'string' ? question : undefined)),
      vscode.commands.registerCommand('anachron.applyFixes', (uri: string, findings: AgentFinding[], lineOffset = 0) => this.applyFixes(vscode.Uri.parse(uri), findings, lineOffset)),
    );
  }

  // ---- the two tools --------------------------------------------------------------------------------------------

  /** anachron_lookup's answer: the input as the tool got it, at the pins of the active Python file. */
  async lookupText(input: Record<string, unknown>, position?: vscode.Position): Promise<string> {
    const editor = activePythonEditor();
    const params: LookupParams = { input, ...(editor ? { uri: editor.document.uri.toString() } : this.folderUri()) };
    if (position && editor) params.position = { line: position.line, character: position.character };
    const r = await this.anachron.request<LookupResponse>(LookupRequest, params);
    if (!r) throw new Error('anachron is not running');
    if (isError(r)) throw new Error(r.error);
    return r.text;
  }

  /** anachron_check on a snippet, at the pins (and with the imports) of the document it comes from. */
  async check(snippet: Snippet, extra: Record<string, unknown> = {}): Promise<CheckSnippetResult> {
    const params: CheckSnippetParams = { input: { ...extra, code: snippet.code }, ...(snippet.uri ? { uri: snippet.uri.toString() } : this.folderUri()) };
    if (snippet.startLine !== undefined) {
      params.firstLine = snippet.startLine + 1;
      params.withImports = true;
    }
    const r = await this.anachron.request<CheckSnippetResponse>(CheckSnippetRequest, params);
    if (!r) throw new Error('anachron is not running');
    if (isError(r)) throw new Error(r.error);
    return r;
  }

  /**
   * anachron_check as a tool call asks it: the code given, else the file (range) named by `path`, read by the server,
   * else the selection of the active Python editor.
   */
  async checkToolInput(input: Record<string, unknown>): Promise<CheckSnippetResult> {
    const editor = activePythonEditor();
    if (typeof input.code === 'string' && input.code.trim()) return this.check({ source: 'prompt', code: input.code, ...(editor ? { uri: editor.document.uri } : {}) }, input);
    if (typeof input.path === 'string' && input.path.trim()) {
      const r = await this.anachron.request<CheckSnippetResponse>(CheckSnippetRequest, { input, ...(editor ? { uri: editor.document.uri.toString() } : this.folderUri()) });
      if (!r) throw new Error('anachron is not running');
      if (isError(r)) throw new Error(r.error);
      return r;
    }
    const selection = selectionSnippet();
    if (!selection) throw new Error('give the code to check (code), a file (path), or select code in a Python editor');
    const { code: _ignored, ...rest } = input;
    return this.check(selection, rest);
  }

  private folderUri(): { uri?: string } {
    const folder = vscode.workspace.workspaceFolders?.[0];
    return folder ? { uri: folder.uri.toString() } : {};
  }

  // ---- @anachron ------------------------------------------------------------------------------------------------

  private async handleChat(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    try {
      await this.answer(request.command, request.prompt, {
        markdown: (text) => stream.markdown(text),
        progress: (text) => stream.progress(text),
        button: (command) => stream.button(command),
      }, token);
      return {};
    } catch (e) {
      return { errorDetails: { message: (e as Error).message } };
    }
  }

  /** The participant's answer to `/command prompt`, written to `out` (the chat stream, or a preview). */
  async answer(command: string | undefined, prompt: string, out: { markdown(text: string): void; progress?(text: string): void; button?(command: vscode.Command): void }, token?: vscode.CancellationToken): Promise<string> {
    let said = '';
    const say = (text: string) => {
      said += text;
      out.markdown(text);
    };
    switch (command) {
      case 'explain': {
        const text = prompt.trim();
        const input: Record<string, unknown> = {};
        const m = /^([A-Za-z_][\w.]*)(?:\s+([\s\S]+))?$/.exec(text);
        if (m && !m[2]) input.api = m[1];
        else if (m && m[2]) Object.assign(input, { module: m[1], description: m[2], ...(m[1]!.includes('.') ? {} : { scope: 'library' }) });
        else if (text) throw new Error('/explain takes an API (numpy.trapezoid), or a module and what you are looking for (numpy.linalg matrix norm)');
        const editor = activePythonEditor();
        if (!text && !editor) throw new Error('/explain needs an API: /explain numpy.trapezoid (or put the cursor on one)');
        out.progress?.('Looking it up in the compatibility matrices…');
        say(await this.lookupText(input, text ? undefined : editor!.selection.active));
        break;
      }
      case 'migrate': {
        const target = prompt.trim();
        if (!target) throw new Error('/migrate needs the version to move to: /migrate 2.2.4 or /migrate numpy==2.2.4');
        const editor = activePythonEditor();
        if (!editor) throw new Error('/migrate works on the Python file in view: open one');
        // The whole file: a migration concerns every use, and the imports say what the names are.
        const code = editor.document.getText();
        const r = await this.anachron.request<MigrateResponse>(MigrateRequest, { code, uri: editor.document.uri.toString(), target });
        if (!r) throw new Error('anachron is not running');
        if (isError(r)) throw new Error(r.error);
        say(`What ${vscode.workspace.asRelativePath(editor.document.uri)} must change, from the compatibility matrices:\n\n${r.text}\n`);
        break;
      }
      case 'check': {
        const code = promptCode(prompt);
        const snippet: Snippet | undefined = code ? { source: 'prompt', code, ...(activePythonEditor() ? { uri: activePythonEditor()!.document.uri } : {}) } : selectionSnippet() ?? this.lastEdit.snippet() ?? (await clipboardSnippet());
        if (!snippet) throw new Error('/check found no code: select some, paste it after /check, or copy it to the clipboard');
        if (token?.isCancellationRequested) return said;
        out.progress?.(`Checking the ${snippet.source} at the project's pins…`);
        const r = await this.check(snippet);
        const where = snippet.uri ? ` of ${vscode.workspace.asRelativePath(snippet.uri)}${snippet.startLine !== undefined ? ` (from line ${snippet.startLine + 1})` : ''}` : '';
        say(`Checked the ${snippet.source}${where}:\n\n${r.text}\n`);
        const fixable = r.findings.filter((f) => f.fix);
        if (fixable.length && snippet.uri && snippet.startLine !== undefined) {
          out.button?.({ command: 'anachron.applyFixes', title: `Apply ${plural(fixable.length, 'fix')}`, arguments: [snippet.uri.toString(), fixable, snippet.startLine] });
        }
        break;
      }
      default:
        say(
          'I answer from anachron\'s compatibility matrices, at the versions this project pins:\n\n' +
            '- `/check` — the selection, your last edit or the clipboard (or code after the command): APIs and keywords that do not exist at the pins, with the fixes\n' +
            '- `/explain numpy.trapezoid` — an API at the pinned version: exists?, signature, what changed around it, the alternative\n' +
            '- `/migrate 2.2.4` — what the file in view must change to move to another version\n\n' +
            `Agents can call the tools \`#anachronLookup\` and \`#anachronCheck\` themselves.${prompt.trim() ? '' : ''}\n`,
        );
    }
    return said;
  }

  // ---- commands ---------------------------------------------------------------------------------------------------

  /** "anachron: Review AI Suggestion": the selection, the clipboard or the working tree's changes, with the fixes. */
  async review(source?: CodeSource | 'diff'): Promise<{ text: string; findings: number } | undefined> {
    let chosen = source === 'diff' ? 'changes' : source;
    if (!chosen) {
      const items: (vscode.QuickPickItem & { source: CodeSource })[] = [];
      const selection = selectionSnippet();
      if (selection) items.push({ label: '$(selection) Selection', description: `${selection.code.split('\n').length} lines of ${vscode.workspace.asRelativePath(selection.uri!)}`, source: 'selection' });
      items.push({ label: '$(clippy) Clipboard', description: 'code copied from a chat or a web page', source: 'clipboard' });
      if (vscode.workspace.workspaceFolders?.length) items.push({ label: '$(git-compare) Changes since HEAD', description: 'the lines the working tree added or changed (git)', source: 'changes' });
      const last = this.lastEdit.snippet();
      if (last) items.push({ label: '$(edit) Last edit', description: `${last.code.split('\n').length} lines of ${vscode.workspace.asRelativePath(last.uri!)}`, source: 'last edit' });
      const picked = await vscode.window.showQuickPick(items, { title: 'anachron: Review AI Suggestion', placeHolder: 'What to check at the project\'s pins' });
      if (!picked) return undefined;
      chosen = picked.source;
    }
    if (chosen === 'changes') return this.reviewChanges();
    const snippet = chosen === 'selection' ? selectionSnippet() : chosen === 'last edit' ? this.lastEdit.snippet() : await clipboardSnippet();
    if (!snippet) {
      void vscode.window.showInformationMessage(`anachron: no code in the ${chosen ?? 'selection'} to review.`);
      return undefined;
    }
    const r = await this.check(snippet);
    const from = snippet.uri && snippet.startLine !== undefined ? ` (${vscode.workspace.asRelativePath(snippet.uri)}, from line ${snippet.startLine + 1})` : '';
    await this.answers.show(`Review of the ${snippet.source}`, `Checked the ${snippet.source}${from} at the project's pins.\n\n${r.text}`);
    this.anachron.log.info(`review of the ${snippet.source}: ${plural(r.findings.length, 'finding')}`);
    const fixable = r.findings.filter((f) => f.fix);
    const summary = `anachron: ${plural(r.findings.length, 'finding')} in the ${snippet.source}${fixable.length ? `, ${fixable.length} with a fix` : ''}.`;
    if (fixable.length && snippet.uri && snippet.startLine !== undefined) {
      void vscode.window.showWarningMessage(summary, `Apply ${plural(fixable.length, 'Fix')}`).then((c) => c && this.applyFixes(snippet.uri!, fixable, snippet.startLine!));
    } else if (fixable.length && r.fixedCode !== null) {
      void vscode.window.showWarningMessage(summary, 'Copy Fixed Code').then((c) => c && vscode.env.clipboard.writeText(r.fixedCode!));
    } else void (r.findings.length ? vscode.window.showWarningMessage(summary) : vscode.window.showInformationMessage(summary));
    return { text: r.text, findings: r.findings.length };
  }

  private async reviewChanges(): Promise<{ text: string; findings: number } | undefined> {
    const folder = (activePythonEditor() && vscode.workspace.getWorkspaceFolder(activePythonEditor()!.document.uri)) || vscode.workspace.workspaceFolders?.[0];
    if (!folder) return undefined;
    const r = await this.anachron.request<ReviewChangesResponse>(ReviewChangesRequest, { folderUri: folder.uri.toString(), rev: 'HEAD' });
    if (!r) return undefined;
    if (isError(r)) {
      void vscode.window.showErrorMessage(`anachron: cannot review the changes of ${folder.name}: ${r.error}`);
      return undefined;
    }
    await this.answers.show('Review of the changes since HEAD', r.text);
    this.anachron.log.info(`review of the changes since HEAD: ${plural(r.findings.length, 'finding')} in ${plural(r.files, 'changed Python file')}`);
    const fixable = r.findings.filter((f) => f.fix && f.uri);
    const summary = `anachron: ${plural(r.findings.length, 'finding')} on the lines changed since HEAD${fixable.length ? `, ${fixable.length} with a fix` : ''}.`;
    if (fixable.length) void vscode.window.showWarningMessage(summary, `Apply ${plural(fixable.length, 'Fix')}`).then((c) => c && this.applyFixesByFile(fixable));
    else void (r.findings.length ? vscode.window.showWarningMessage(summary) : vscode.window.showInformationMessage(summary));
    return { text: r.text, findings: r.findings.length };
  }

  /** Applies the preferred fixes of findings in one document; their edits are `lineOffset` lines above the document's. */
  async applyFixes(uri: vscode.Uri, findings: readonly AgentFinding[], lineOffset = 0): Promise<boolean> {
    const edit = new vscode.WorkspaceEdit();
    for (const f of findings) for (const e of f.fix?.edits ?? []) edit.replace(uri, lspRange(e, lineOffset), e.newText);
    return vscode.workspace.applyEdit(edit);
  }

  private async applyFixesByFile(findings: readonly AgentFinding[]): Promise<boolean> {
    const edit = new vscode.WorkspaceEdit();
    for (const f of findings) for (const e of f.fix?.edits ?? []) edit.replace(vscode.Uri.parse(f.uri!), lspRange(e, 0), e.newText);
    return vscode.workspace.applyEdit(edit);
  }

  /**
   * "anachron: Look Up API for Agents…": the answer anachron_lookup gives an agent, through vscode.lm.invokeTool
   * when this VS Code has it (else the same request directly), for the API under the cursor or one typed in.
   */
  async lookupCommand(api?: string): Promise<string | undefined> {
    const editor = activePythonEditor();
    let name = api;
    if (!name && editor) {
      try {
        const under = await this.anachron.request<LookupResponse>(LookupRequest, { input: {}, uri: editor.document.uri.toString(), position: { line: editor.selection.active.line, character: editor.selection.active.character } });
        if (under && !isError(under) && under.api) name = under.api;
      } catch {
        // ask below
      }
    }
    name ??= await vscode.window.showInputBox({ title: 'anachron: Look Up API for Agents', prompt: 'A fully qualified API, or a module and a description', placeHolder: 'numpy.trapezoid', ignoreFocusOut: true });
    if (!name?.trim()) return undefined;
    const m = /^([A-Za-z_][\w.]*)(?:\s+([\s\S]+))?$/.exec(name.trim());
    const input: Record<string, unknown> = m?.[2] ? { module: m[1], description: m[2], ...(m[1]!.includes('.') ? {} : { scope: 'library' }) } : { api: name.trim() };
    const tools = lmTools();
    let text: string;
    if (tools && tools.tools.some((t) => t.name === LOOKUP_TOOL)) {
      text = resultText(await tools.invokeTool(LOOKUP_TOOL, { input, toolInvocationToken: undefined }));
      this.anachron.log.info(`lookup of ${name.trim()} via vscode.lm.invokeTool(${LOOKUP_TOOL}): ${text.split('\n')[1] ?? text.split('\n')[0]}`);
    } else {
      text = await this.lookupText(input);
      this.anachron.log.info(`lookup of ${name.trim()} (no vscode.lm tools here): ${text.split('\n')[1] ?? text.split('\n')[0]}`);
    }
    await this.answers.show(`${LOOKUP_TOOL}: ${name.trim()}`, `What \`${LOOKUP_TOOL}\` answers an agent, at the pins of ${editor ? vscode.workspace.asRelativePath(editor.document.uri) : 'the workspace'}:\n\n${text}`);
    return text;
  }

  /** "anachron: Ask @anachron…": the participant's answer in a preview, for editors without chat. */
  async askCommand(question?: string): Promise<string | undefined> {
    const typed = question ?? (await vscode.window.showInputBox({ title: 'anachron: Ask @anachron', prompt: '/check, /explain API, or /migrate VERSION', placeHolder: '/explain numpy.trapezoid', ignoreFocusOut: true }));
    if (!typed?.trim()) return undefined;
    const m = /^\/(\w+)\s*([\s\S]*)$/.exec(typed.trim());
    const command = m ? m[1] : undefined;
    const prompt = m ? m[2]! : typed.trim();
    let text = '';
    const buttons: vscode.Command[] = [];
    try {
      text = await this.answer(command, prompt, { markdown: () => undefined, button: (b) => buttons.push(b) });
    } catch (e) {
      text = `**Cannot answer:** ${(e as Error).message}`;
    }
    this.anachron.log.info(`@anachron ${typed.trim()}: ${text.split('\n').find((l) => l.trim()) ?? ''}`);
    await this.answers.show(`@anachron ${typed.trim()}`, text);
    for (const b of buttons) void vscode.window.showInformationMessage(`anachron: ${b.title}?`, b.title).then((c) => c && vscode.commands.executeCommand(b.command, ...(b.arguments ?? [])));
    return text;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
