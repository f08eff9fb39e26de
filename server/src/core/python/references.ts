// Finds every place where a Python file reaches into a library: imports, attribute chains rooted at an imported
// name, calls with their keywords, and names that a star import brings in. The output is plain data; deciding
// which libraries are tracked and what is wrong with a reference is the checker's job.
import type { Node, Tree } from 'web-tree-sitter';
import type { SourceRange } from '../source-range.js';
import { chainParts, dottedParts, rangeBetween, rangeOf } from './syntax.js';
import { indexTree, type TreeIndex } from './tree-index.js';
import { collectLocalBindings } from './local-bindings.js';
import { buildGuardIndex, type Failure } from './guards.js';

export interface PathPrefix {
  /** Fully qualified dotted path, e.g. "numpy.linalg". */
  path: string;
  /** Where this prefix is written (from the start of the reference to the end of its last segment). */
  range: SourceRange;
}

export interface KeywordArgument {
  name: string;
  range: SourceRange;
}

export interface CallSite {
  keywords: KeywordArgument[];
  positionalCount: number;
  /** `*args` or `**kwargs` in the call: arity and the full keyword set are not known statically. */
  hasUnpacking: boolean;
  range: SourceRange;
}

export type ReferenceOrigin = 'import' | 'attribute' | 'name' | 'star' | 'instance';

/** An attribute used on a value a library call produced: `rng = np.random.default_rng(); rng.integers(…)`. */
export interface InstanceReceiver {
  /** The callee that produced the value: a class (instantiation) or a function whose return type the matrix records. */
  producer: string;
  /** The attribute chain used on the value, e.g. [integers]. */
  members: { name: string; range: SourceRange }[];
}

export interface ApiReference {
  /** Every dotted prefix of the reference, shortest first; the last one is the whole reference. */
  prefixes: PathPrefix[];
  /** Index of the first prefix to check for existence; the ones before were checked where the name was bound. */
  firstToCheck: number;
  origin: ReferenceOrigin;
  call: CallSite | null;
  /** Inside a try/except that catches the failure, or under a hasattr() test for it: a deliberate fallback. */
  guarded: boolean;
  /** The call's arguments are guarded (`except TypeError`, version branches): no parameter-level findings. */
  callGuarded?: boolean;
  /** For origin "instance": the value's producer and the members used on it (prefixes are then empty). */
  receiver?: InstanceReceiver;
}

interface Binding {
  path: string;
}

/** Names bound by imports: name -> binding, or null when the name is bound to several different things. */
type BindingTable = Map<string, Binding | null>;

function bind(table: BindingTable, name: string, path: string): void {
  const existing = table.get(name);
  if (existing === undefined) table.set(name, { path });
  else if (existing !== null && existing.path !== path) table.set(name, null);
}

function prefixesOfDotted(parts: Node[], basePath: string[] = [], baseStart?: Node): PathPrefix[] {
  const start = baseStart ?? parts[0]!;
  return parts.map((part, i) => ({
    path: [...basePath, ...parts.slice(0, i + 1).map((p) => p.text)].join('.'),
    range: rangeBetween(start, part),
  }));
}

function collectImports(index: TreeIndex, refs: ApiReference[], table: BindingTable, starModules: string[], isGuarded: (node: Node, segments: string[], failure: Failure) => boolean): void {
  for (const node of [...index.ofType('import_statement'), ...index.ofType('import_from_statement')]) {
    if (node.type === 'import_statement') {
      for (const item of node.namedChildren) {
        if (!item) continue;
        const dotted = item.type === 'aliased_import' ? item.childForFieldName('name') : item;
        if (!dotted || dotted.type !== 'dotted_name') continue;
        const parts = dottedParts(dotted);
        if (parts.length === 0) continue;
        refs.push({ prefixes: prefixesOfDotted(parts), firstToCheck: 1, origin: 'import', call: null, guarded: isGuarded(node, parts.map((p) => p.text), 'module-import') });
        const alias = item.type === 'aliased_import' ? item.childForFieldName('alias') : null;
        if (alias) bind(table, alias.text, parts.map((p) => p.text).join('.'));
        else bind(table, parts[0]!.text, parts[0]!.text);
      }
    } else if (node.type === 'import_from_statement') {
      const moduleNode = node.childForFieldName('module_name');
      if (!moduleNode || moduleNode.type !== 'dotted_name') continue; // relative imports stay inside the project
      const moduleParts = dottedParts(moduleNode);
      const modulePath = moduleParts.map((p) => p.text);
      const guarded = isGuarded(node, modulePath, 'import');
      // Each imported name is checked with its module, so a missing module is reported once (deduplicated by
      // position) and not again for every name imported from it.
      if (node.namedChildren.some((c) => c?.type === 'wildcard_import')) {
        refs.push({ prefixes: prefixesOfDotted(moduleParts), firstToCheck: 1, origin: 'import', call: null, guarded });
      }
      for (const item of node.childrenForFieldName('name')) {
        if (!item) continue;
        const dotted = item.type === 'aliased_import' ? item.childForFieldName('name') : item;
        if (!dotted || dotted.type !== 'dotted_name') continue;
        const parts = dottedParts(dotted);
        const prefixes = prefixesOfDotted(parts, modulePath);
        refs.push({
          prefixes: [...prefixesOfDotted(moduleParts), ...prefixes],
          firstToCheck: 1,
          origin: 'import',
          call: null,
          guarded: isGuarded(node, [...modulePath, ...parts.map((p) => p.text)], 'import'),
        });
        const alias = item.type === 'aliased_import' ? item.childForFieldName('alias') : null;
        bind(table, (alias ?? parts[parts.length - 1]!).text, prefixes[prefixes.length - 1]!.path);
      }
      if (node.namedChildren.some((c) => c?.type === 'wildcard_import')) starModules.push(modulePath.join('.'));
    }
  }
}

function callSiteOf(call: Node): CallSite {
  const args = call.childForFieldName('arguments');
  const keywords: KeywordArgument[] = [];
  let positionalCount = 0;
  let hasUnpacking = false;
  if (args && args.type === 'argument_list') {
    for (const arg of args.namedChildren) {
      if (!arg || arg.type === 'comment') continue;
      if (arg.type === 'keyword_argument') {
        const name = arg.childForFieldName('name');
        if (name) keywords.push({ name: name.text, range: rangeOf(name) });
      } else if (arg.type === 'list_splat' || arg.type === 'dictionary_splat') {
        hasUnpacking = true;
      } else {
        positionalCount++;
      }
    }
  } else if (args) {
    positionalCount = 1; // a bare generator expression argument
  }
  return { keywords, positionalCount, hasUnpacking, range: rangeOf(call) };
}

/** Is this identifier read as a value (not a definition, keyword name, attribute name or import name)? */
function isValueIdentifier(node: Node): boolean {
  const parent = node.parent;
  if (!parent) return false;
  switch (parent.type) {
    case 'attribute':
      return parent.childForFieldName('object')?.id === node.id;
    case 'keyword_argument':
      return parent.childForFieldName('value')?.id === node.id;
    case 'dotted_name':
    case 'aliased_import':
    case 'import_statement':
    case 'import_from_statement':
    case 'parameters':
    case 'lambda_parameters':
    case 'default_parameter':
    case 'typed_parameter':
    case 'typed_default_parameter':
    case 'global_statement':
    case 'nonlocal_statement':
      return false;
    case 'function_definition':
    case 'class_definition':
      return parent.childForFieldName('name')?.id !== node.id;
    default:
      return true;
  }
}

function isAssignmentTarget(node: Node): boolean {
  let child = node;
  let parent = node.parent;
  while (parent && (parent.type === 'pattern_list' || parent.type === 'tuple_pattern' || parent.type === 'list_pattern')) {
    child = parent;
    parent = parent.parent;
  }
  if (!parent) return false;
  if (parent.type === 'assignment' || parent.type === 'augmented_assignment') {
    return parent.childForFieldName('left')?.id === child.id;
  }
  return parent.type === 'delete_statement';
}

/** For `call(...).a.b`, the call and the members used on its result; null for any other shape. */
function membersOnCall(node: Node): { call: Node; names: { name: string; range: SourceRange }[] } | null {
  const names: { name: string; range: SourceRange }[] = [];
  let current: Node | null = node;
  const attrs: Node[] = [];
  while (current && current.type === 'attribute') {
    const attr = current.childForFieldName('attribute');
    if (!attr) return null;
    attrs.unshift(attr);
    current = current.childForFieldName('object');
  }
  if (!current || current.type !== 'call') return null;
  for (const a of attrs) names.push({ name: a.text, range: rangeOf(a) });
  return { call: current, names };
}

/** Python's builtins: after a star import, a name the module does not export still means the builtin. */
const BUILTINS = new Set(('abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex ' +
  'delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash help hex id input int ' +
  'isinstance issubclass iter len list locals map max memoryview min next object oct open ord pow print property range repr ' +
  'reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip __import__ Ellipsis NotImplemented ' +
  'True False None').split(' '));

/** Resolves single-assignment aliases such as `fft = np.fft` to more bindings, to a fixed point. */
function addAliases(assignments: Map<string, Node[]>, locallyBound: Set<string>, table: BindingTable): void {
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, values] of assignments) {
      if (values.length !== 1 || table.has(name) || locallyBound.has(name)) continue;
      const value = values[0]!;
      const parts = value.type === 'identifier' ? [value] : chainParts(value);
      if (!parts) continue;
      const root = table.get(parts[0]!.text);
      if (!root) continue;
      table.set(name, { path: [root.path, ...parts.slice(1).map((p) => p.text)].join('.') });
      changed = true;
    }
  }
}

export function findApiReferences(tree: Tree): ApiReference[] {
  const index = indexTree(tree);
  const guards = buildGuardIndex(index);
  const isGuarded = (node: Node, segments: string[], failure: Failure) => guards.isGuarded(node, segments, failure);
  const refs: ApiReference[] = [];
  const table: BindingTable = new Map();
  const starModules: string[] = [];
  collectImports(index, refs, table, starModules, isGuarded);

  const { boundNames, singleAssignments, boundOutsideParameters, parameterScopes } = collectLocalBindings(index);
  // A name both imported and bound some other way (assigned, a loop variable …) is ambiguous; a parameter of the
  // same name shadows the import only inside its function.
  for (const name of [...boundOutsideParameters, ...singleAssignments.keys()]) if (table.has(name)) table.set(name, null);
  addAliases(singleAssignments, boundNames, table);
  // Inside a function taking the name as a parameter (by position in the text: no walk up the tree per lookup).
  const bindingAt = (name: string, at: Node): Binding | null | undefined => {
    const binding = table.get(name);
    const owners = binding ? parameterScopes.get(name) : undefined;
    if (owners?.some((o) => o.startIndex <= at.startIndex && at.endIndex <= o.endIndex)) return null;
    return binding;
  };
  const producerOf = (call: Node): string | null => {
    if (call.type !== 'call') return null;
    const fn = call.childForFieldName('function');
    const parts = fn ? (fn.type === 'identifier' ? [fn] : chainParts(fn)) : null;
    const binding = parts ? bindingAt(parts[0]!.text, call) : null;
    return binding && parts ? [binding.path, ...parts.slice(1).map((p) => p.text)].join('.') : null;
  };
  // Values with a certain producer: names assigned once, from a call into a library, and bound no other way.
  const instances = new Map<string, string>();
  for (const [name, values] of singleAssignments) {
    if (values.length !== 1 || boundNames.has(name) || table.has(name)) continue;
    const producer = producerOf(values[0]!);
    if (producer) instances.set(name, producer);
  }

  const calls = new Map<number, CallSite>();
  for (const node of index.ofType('call')) {
    const fn = node.childForFieldName('function');
    if (fn) calls.set(fn.id, callSiteOf(node));
  }

  const visit = (node: Node): void => {
    if (node.type === 'attribute') {
      const parent = node.parent;
      if (parent?.type === 'attribute' && parent.childForFieldName('object')?.id === node.id) return; // not maximal
      const parts = chainParts(node);
      if (isAssignmentTarget(node)) return;
      if (!parts) {
        // `np.zeros(3).tostring()`: members used directly on a library call's result.
        const members = membersOnCall(node);
        const producer = members ? producerOf(members.call) : null;
        if (members && producer) {
          refs.push({ prefixes: [], firstToCheck: 0, origin: 'instance', call: calls.get(node.id) ?? null, guarded: isGuarded(node, members.names.map((m) => m.name), 'attribute'), callGuarded: isGuarded(node, members.names.map((m) => m.name), 'call'), receiver: { producer, members: members.names } });
        }
        return;
      }
      const instanceProducer = instances.get(parts[0]!.text);
      if (instanceProducer) {
        const members = parts.slice(1).map((p) => ({ name: p.text, range: rangeBetween(parts[0]!, p) }));
        refs.push({ prefixes: [], firstToCheck: 0, origin: 'instance', call: calls.get(node.id) ?? null, guarded: isGuarded(node, members.map((m) => m.name), 'attribute'), callGuarded: isGuarded(node, members.map((m) => m.name), 'call'), receiver: { producer: instanceProducer, members } });
        return;
      }
      const binding = bindingAt(parts[0]!.text, node);
      if (!binding) return;
      const rootSegments = binding.path.split('.');
      const prefixes: PathPrefix[] = rootSegments.map((_, i) => ({
        path: rootSegments.slice(0, i + 1).join('.'),
        range: rangeOf(parts[0]!),
      }));
      for (let i = 1; i < parts.length; i++) {
        prefixes.push({ path: `${binding.path}.${parts.slice(1, i + 1).map((p) => p.text).join('.')}`, range: rangeBetween(parts[0]!, parts[i]!) });
      }
      refs.push({
        prefixes,
        firstToCheck: rootSegments.length,
        origin: 'attribute',
        call: calls.get(node.id) ?? null,
        guarded: isGuarded(node, prefixes[prefixes.length - 1]!.path.split('.'), 'attribute'),
        callGuarded: isGuarded(node, prefixes[prefixes.length - 1]!.path.split('.'), 'call'),
      });
    } else if (node.type === 'identifier' && isValueIdentifier(node) && !isAssignmentTarget(node)) {
      const parent = node.parent;
      if (parent?.type === 'attribute') return; // the root of a chain: handled with the chain
      const binding = bindingAt(node.text, node);
      if (binding) {
        const call = calls.get(node.id);
        if (call) {
          const segments = binding.path.split('.');
          refs.push({
            prefixes: segments.map((_, i) => ({ path: segments.slice(0, i + 1).join('.'), range: rangeOf(node) })),
            firstToCheck: segments.length,
            origin: 'name',
            call,
            guarded: isGuarded(node, segments, 'attribute'),
            callGuarded: isGuarded(node, segments, 'call'),
          });
        }
      } else if (binding === undefined && !boundNames.has(node.text) && !singleAssignments.has(node.text) && !BUILTINS.has(node.text)) {
        for (const module of starModules) {
          const segments = [...module.split('.'), node.text];
          refs.push({
            prefixes: segments.map((_, i) => ({ path: segments.slice(0, i + 1).join('.'), range: rangeOf(node) })),
            firstToCheck: segments.length - 1,
            origin: 'star',
            call: calls.get(node.id) ?? null,
            guarded: isGuarded(node, segments, 'name'),
            callGuarded: isGuarded(node, segments, 'call'),
          });
        }
      }
    }
  };
  for (const node of index.ofType('attribute')) visit(node);
  for (const node of index.ofType('identifier')) visit(node);

  // `np.trapezoid = np.trapz` (a polyfill, usually under `if not hasattr(…)`): the file provides the name itself.
  const polyfilled = new Set<string>();
  for (const node of index.ofType('attribute')) {
    if (!isAssignmentTarget(node)) continue;
    const parts = chainParts(node);
    const binding = parts ? bindingAt(parts[0]!.text, node) : null;
    if (parts && binding) polyfilled.add([binding.path, ...parts.slice(1).map((p) => p.text)].join('.'));
  }
  if (polyfilled.size > 0) {
    for (const ref of refs) if (ref.prefixes.some((p) => polyfilled.has(p.path))) ref.guarded = true;
  }
  return refs;
}
