// Runs the local OpenAI-compatible server on its own, to point any client at the built-in models:
//   node --import tsx server/src/eval/serve-models.ts [--matrices DIR] [--port N] [--faults P] [--seed N]
// Serves echo and constant always, reference-pinned and reference-newest when the matrices folder holds matrices.
// --faults P injects timeouts, 429, 500, malformed bodies and dropped connections with P/5 probability each.
import { parseArgs } from 'node:util';
import { BuiltinProvider } from './builtin-models.js';
import { openReferenceKnowledge } from './libevobench/builtin-models.js';
import { mixedFaults } from './local-server/faults.js';
import { startLocalModelServer } from './local-server/server.js';
import type { ModelProvider } from './models/provider.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { matrices: { type: 'string' }, port: { type: 'string', default: '0' }, faults: { type: 'string', default: '0' }, seed: { type: 'string', default: '1' } },
  });
  const models: Record<string, ModelProvider> = { echo: new BuiltinProvider('echo'), constant: new BuiltinProvider('constant') };
  if (values.matrices) {
    const k = openReferenceKnowledge(values.matrices);
    models['reference-pinned'] = new BuiltinProvider('reference-pinned', { catalog: k.catalog, listing: k.listing });
    models['reference-newest'] = new BuiltinProvider('reference-newest', { catalog: k.catalog, listing: k.listing });
  }
  const faults = Number(values.faults);
  const server = await startLocalModelServer({ models, port: Number(values.port), faults: mixedFaults(faults, { seed: Number(values.seed) }) });
  process.stdout.write(`anachron local model server: ${server.baseUrl} (models: ${Object.keys(models).join(', ')}; faults ${faults})\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
});
