// One implementation of "check this Python text": the CLI, the language server and the benchmark all call it.
import { checkReferences, type CheckContext } from './core/checker.js';
import type { Finding } from './core/findings.js';
import { findApiReferences } from './core/python/references.js';
import type { PythonParser } from './parser/python-parser.js';

export function checkPythonSource(parser: PythonParser, text: string, ctx: CheckContext): Finding[] {
  const tree = parser.parse(text);
  try {
    return checkReferences(findApiReferences(tree), ctx);
  } finally {
    tree.delete();
  }
}
