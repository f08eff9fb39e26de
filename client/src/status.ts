// The language status item on Python files: the pins the active file is checked at and where they come from (its
// command opens that manifest line), the libraries the file imports that are not checked at their pins (and why),
// and which SQLite reads the matrices, or why anachron is not running. Also the
// shared "what state are we in".
import { languages, LanguageStatusSeverity, Uri, workspace, type Disposable, type LanguageStatusItem } from 'vscode';
import { coverageRequirement, describeCoverageReason } from '../../server/src/core/coverage-text.js';
import type { PinInfo, PinsResult } from '../../server/src/lsp/protocol.js';

export type ServerState = { kind: 'starting' } | { kind: 'running' } | { kind: 'restarting'; reason: string } | { kind: 'failed'; reason: string } | { kind: 'stopped' } | { kind: 'disabled' };

export function pinLabel(p: PinInfo): string {
  return p.exactVersion ? `${p.library ?? p.distribution} ${p.exactVersion}` : `${p.library ?? p.distribution}${p.specifier || ' (any version)'}`;
}

export class PinsStatus implements Disposable {
  readonly item: LanguageStatusItem;
  private state: ServerState = { kind: 'starting' };
  private pins: PinsResult | null | undefined;
  private restricted = false;
  private store: string | undefined;

  constructor() {
    this.item = languages.createLanguageStatusItem('anachron.pins', [{ language: 'python' }]);
    this.item.name = 'anachron';
    this.render();
  }

  setState(state: ServerState): void {
    this.state = state;
    this.render();
  }

  setRestricted(restricted: boolean): void {
    this.restricted = restricted;
    this.render();
  }

  /** The matrix store the server reports ("WebAssembly SQLite 3.54.1"). */
  setStore(label: string | undefined): void {
    this.store = label;
    this.render();
  }

  setPins(pins: PinsResult | null | undefined): void {
    this.pins = pins;
    this.render();
  }

  private render(): void {
    const item = this.item;
    item.busy = this.state.kind === 'starting' || this.state.kind === 'restarting';
    item.severity = LanguageStatusSeverity.Information;
    item.command = undefined;
    item.accessibilityInformation = undefined;
    switch (this.state.kind) {
      case 'starting':
        item.text = '$(history) anachron';
        item.detail = 'starting';
        return;
      case 'restarting':
        item.text = '$(history) anachron';
        item.detail = `restarting: ${this.state.reason}`;
        item.severity = LanguageStatusSeverity.Warning;
        item.command = { title: 'Show Output', command: 'anachron.showOutput' };
        return;
      case 'disabled':
        item.text = '$(circle-slash) anachron: off';
        item.detail = 'anachron.enable is off';
        item.command = { title: 'Turn On', command: 'workbench.action.openSettings', arguments: ['anachron.enable'] };
        return;
      case 'failed':
      case 'stopped':
        item.text = '$(error) anachron: not running';
        item.detail = this.state.kind === 'failed' ? this.state.reason : 'stopped';
        item.severity = LanguageStatusSeverity.Error;
        item.command = { title: 'Restart', command: 'anachron.restartServer' };
        return;
    }
    const restricted = `${this.store ? ` · matrices: ${this.store}` : ''}${this.restricted ? ' · Restricted Mode: static checks only' : ''}`;
    const pins = this.pins;
    if (!pins) {
      item.text = '$(history) anachron';
      item.detail = `no pins for this file${restricted}`;
      item.command = { title: 'Show Pins', command: 'anachron.showPins' };
      return;
    }
    const tracked = pins.pins.filter((p) => p.library !== null);
    // What the open file imports and could not be checked at its pin: a warning, with why.
    const uncovered = (pins.coverage ?? []).filter((e) => e.state !== 'checked' && e.reason !== 'unpinned');
    const coverage = uncovered.length ? ` · not checked: ${uncovered.map((e) => `${coverageRequirement(e)} (${describeCoverageReason(e)})`).join(', ')}` : '';
    // Tracked libraries the file imports that nothing pins (Python aside: its interpreter stands in), or a guessed manifest.
    const missing = [...new Set((pins.coverage ?? []).filter((e) => e.reason === 'unpinned' && e.trackedVersions.length > 0 && e.distribution !== 'python').map((e) => e.library))];
    const found = pins.found;
    const shown = (uri: string) => workspace.asRelativePath(Uri.parse(uri), false);
    const from = found ? ` · pins from ${found.chosen.map(shown).join(', ')} (${found.how === 'configured' ? 'anachron.manifestPaths or [tool.anachron] manifests' : found.ambiguous ? `a guess: ${found.candidates.length - 1} other manifest${found.candidates.length === 2 ? '' : 's'} found` : 'found in the project'})` : '';
    const choose = (pins.manifestCandidates ?? []).length > 0 && (missing.length > 0 || found?.ambiguous === true);
    const unpinnedText = missing.length ? ` · ${missing.join(', ')} imported but unpinned: not checked${choose ? ' — Choose manifest…' : ''}` : '';
    if (uncovered.length || missing.length || found?.ambiguous) item.severity = LanguageStatusSeverity.Warning;
    const chooseCommand = { title: 'Choose Manifest…', command: 'anachron.chooseManifest' };
    if (tracked.length === 0) {
      item.text = `$(history) anachron: ${missing.length ? `${missing.join(', ')} unpinned` : uncovered.length ? `${uncovered.length} not checked` : 'no pins'}`;
      item.detail = `${missing.length || uncovered.length ? '' : 'no tracked library pinned'}${unpinnedText}${coverage}${restricted}`.replace(/^ · /, '');
      item.command = choose ? chooseCommand : { title: 'Show Pins', command: 'anachron.showPins' };
      item.accessibilityInformation = { label: `anachron pins: ${item.detail}` };
      return;
    }
    const first = tracked[0]!;
    item.text = `$(history) ${tracked.map(pinLabel).slice(0, 2).join(', ')}${tracked.length > 2 ? ` +${tracked.length - 2}` : ''}${uncovered.length + missing.length ? ` · ${uncovered.length + missing.length} not checked` : ''}`;
    // The tracked pins the file is checked at, then those it is not (named once, under "not checked", with why).
    const notChecked = new Set(uncovered.map((e) => e.distribution));
    const checked = tracked.filter((p) => !notChecked.has(p.distribution));
    item.detail = `${checked.length ? `checked: ${checked.map((p) => `${p.distribution}${p.specifier} from ${p.origin}`).join('; ')}` : ''}${from}${unpinnedText}${coverage}${restricted}`.replace(/^ · /, '');
    item.command = choose
      ? chooseCommand
      : first.originUri
        ? { title: `Open ${first.origin}`, command: 'anachron.openPinSource', arguments: [first.originUri, first.originLine ?? 0] }
        : { title: 'Show Pins', command: 'anachron.showPins' };
    item.accessibilityInformation = { label: `anachron pins: ${item.detail}` };
  }

  dispose(): void {
    this.item.dispose();
  }
}
