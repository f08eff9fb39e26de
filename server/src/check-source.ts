// One implementation of "check this Python text": the CLI, the language server and the benchmark all call it.
import { analyzeTree, type AnalysisContext } from './core/analyze.js';
import type { Finding } from './core/findings.js';
import type { PythonParser } from './parser/python-parser.js';

export function checkPythonSource(parser: PythonParser, text: string, ctx: AnalysisContext): Finding[] {
  const tree = parser.parse(text);
  try {
    return analyzeTree(tree, ctx);
  } finally {
    tree.delete();
  }
}
