// A static surface that describes every platform (typeshed's stubs of the standard library, read for Linux, macOS
// and Windows) and a runtime surface of one interpreter on one platform see different parts of the same truth: the
// stubs list what each platform has and attributes set in __init__; the runtime lists what an import really
// brings. A static surface with `merge_with_runtime: "union"` asks the builder to take both: a path either has is
// present. Where neither has it, absence is a claim only the static side can make: a path no static surface of the
// library ever records (an import the runtime saw, a name the stubs never list) is unknown at a version whose
// runtime lacks it, never absent.
import { betterSignature } from './better-signature.js';
import type { CompareOptions } from './surface-agreement.js';
import type { Surface, SurfaceApi } from './surface.js';

export function wantsUnion(statics: readonly (Surface | undefined)[]): boolean {
  return statics.some((s) => s?.merge_with_runtime === 'union');
}

function merged(runtime: SurfaceApi, stub: SurfaceApi): SurfaceApi {
  return {
    path: runtime.path,
    // An opaque runtime record (an object of unknown kind) says less than the stub's kind.
    kind: runtime.kind === 'attribute' ? stub.kind : runtime.kind,
    defined_in: runtime.defined_in ?? stub.defined_in ?? null,
    signature: betterSignature(runtime.signature, stub.signature),
    doc: runtime.doc ?? stub.doc,
    exported: stub.exported ?? runtime.exported,
  };
}

/** One surface with every path of either, for a version that has both (members_at already expanded). */
export function unionSurface(runtime: Surface, stub: Surface): Surface {
  const byPath = new Map(stub.apis.map((a) => [a.path, a] as const));
  const apis: SurfaceApi[] = [];
  for (const r of runtime.apis) {
    const s = byPath.get(r.path);
    apis.push(s ? merged(r, s) : r);
    byPath.delete(r.path);
  }
  apis.push(...byPath.values());
  apis.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    ...runtime,
    provenance: { ...(stub.provenance ?? {}), ...Object.fromEntries(Object.entries(runtime.provenance ?? {}).map(([k, v]) => [`runtime_${k}`, v])) },
    apis,
  };
}

/**
 * What the name comparison of a union library leaves out: paths the stubs have on some platforms only, and names
 * a module of the runtime merely imports (not exported, unknown to the stubs: `contextlib.deque`).
 */
export function setApartForUnion(runtime: Surface, stub: Surface): (path: string) => string | null {
  const specific = stub.platform_specific ?? {};
  const inStub = new Set(stub.apis.map((a) => a.path));
  const notExported = new Set(runtime.apis.filter((a) => a.exported === false && !inStub.has(a.path)).map((a) => a.path));
  return (path) => (path in specific ? 'platform-specific' : notExported.has(path) ? 'imported from another module' : null);
}

/** How a reference surface and a candidate are compared: with the union rules when the candidate asks for them. */
export function agreementOptions(reference: Surface, candidate: Surface): CompareOptions {
  return candidate.merge_with_runtime === 'union' ? { setApart: setApartForUnion(reference, candidate), keywords: true } : {};
}
