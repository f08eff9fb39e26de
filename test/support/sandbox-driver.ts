// Runs sandbox requests from a JSON file (argv[2]: [{ python, code, harness, entryPoint, … }]) one after another through
// executeSample and prints one JSON line per outcome ({ ok: outcome } or { error: { name, message } }). The hostile
// sandbox suite starts it as an unprivileged user, to run the same attacks with a caller that is not root.
import { readFileSync } from 'node:fs';
import { executeSample, sandboxCapabilities, type ExecutionRequest } from '../../server/src/environments/sandbox.js';

async function main(): Promise<void> {
  const requests = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as ExecutionRequest[];
  const caps = await sandboxCapabilities();
  process.stdout.write(`${JSON.stringify({ capabilities: { root: caps.root, boundary: caps.boundary, refusal: caps.refusal, notes: caps.notes } })}\n`);
  for (const request of requests) {
    try {
      process.stdout.write(`${JSON.stringify({ ok: await executeSample(request) })}\n`);
    } catch (e) {
      process.stdout.write(`${JSON.stringify({ error: { name: (e as Error).name, message: (e as Error).message } })}\n`);
    }
  }
}

void main();
