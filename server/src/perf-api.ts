// Internals the perf/ scripts drive directly (bundled as dist/perf-api.js): the same functions the CLI and the
// server use, so the figures measure the real thing.
export { openMatrixCatalog } from './store/catalog.js';
export { chooseSqlite } from './store/sqlite/driver.js';
export { defaultMatricesFolder } from './store/matrices-folder.js';
export { loadPythonParser } from './parser/python-parser.js';
export { findApiReferences } from './core/python/file-syntax.js';
export { analyzeTree } from './core/analyze.js';
export { parseCommandLinePin } from './core/pins.js';
export { parseManifest } from './core/manifests/index.js';
export { pythonPinOf } from './core/manifests/python-pins.js';
export { versionsUnderPin } from './core/checker.js';
