// dist/server.js: the language server's entry. Started over stdio (`node dist/server.js --stdio`, other editors)
// under a cap on virtual memory, it runs itself again without V8's WebAssembly trap handler first (wasm-memory.ts);
// the VS Code client, whose IPC channel cannot be handed on, passes the flag itself (client/src/server-runtime.ts).
import { handedOffUnderCap } from '../wasm-memory.js';

if (!(process.argv.includes('--stdio') && handedOffUnderCap(process.argv[1]!, process.argv.slice(2)))) void import('./server.js');
