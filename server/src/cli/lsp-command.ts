// `anachron lsp [--stdio]`: the editor's language server (dist/server.js) for any LSP client (Neovim, Helix, Zed,
// Emacs…), over stdin/stdout. The server runs in this process; nothing else may write to stdout from here on.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { InputError } from '../core/errors.js';

/** dist/server.js beside this bundle (dist/cli.js), or from the source tree under tsx. */
export function serverBundlePath(): string | undefined {
  const candidates = [join(__dirname, 'server.js'), join(__dirname, '..', '..', '..', 'dist', 'server.js')];
  return candidates.find((c) => existsSync(c));
}

export function runLsp(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    // --clientProcessId: some clients pass it so the server can exit when they die; the server reads it itself.
    options: { stdio: { type: 'boolean', default: true }, clientProcessId: { type: 'string' } },
  });
  if (positionals.length > 0) throw new InputError(`anachron lsp takes no arguments (got ${positionals.join(' ')}); it speaks LSP over stdio`);
  const bundle = serverBundlePath();
  if (!bundle) throw new InputError('dist/server.js is missing; run `npm run build` in the anachron folder first');
  // The server picks its transport from the command line, as when an editor starts `node dist/server.js --stdio`.
  process.argv = [process.argv[0]!, bundle, '--stdio', ...(values.clientProcessId ? [`--clientProcessId=${values.clientProcessId}`] : [])];
  createRequire(__filename)(bundle);
  // The server owns the process now and exits when the client says so (or closes stdin); never settle.
  return new Promise<number>(() => {});
}
