// One version, two readings of the same callable's signature: the runtime probe's and static extraction's (or
// typeshed's stub). The runtime decides what exists; for the signature it is not always the better source. A
// runtime that read `(*args, **kwargs)` from a Cython docstring (numpy 1.19.5's default_rng) would otherwise
// override the `(seed=None)` static extraction reads from the definition at the same tag, and the matrix would
// show seed removed in 1.19.5 and added again in 1.20.0 (issue 22, point 4). Evidence that loses parameters does
// not override a source that names them.
import { acceptsKeyword } from '../core/api-model.js';
import { callerShape, forwardsTo, hasCatchAll, sameForCallers } from '../core/caller-signature.js';
import type { Surface, SurfaceSignature } from './surface.js';

/** Read from the callable's definition (source, the interpreter's own signature, a C argument parser) or a stub, not from prose. */
const fromDefinition = (s: SurfaceSignature) => s.source === 'inspect' || s.source === 'stub' || s.source === 'parser';

/**
 * The signature a version records where the runtime and OTHER (static extraction, a stub) both read the callable:
 * the runtime's, unless it has none, or it loses parameters OTHER names (it reads as a wrapper forwarding to
 * OTHER: core/caller-signature.ts forwardsTo), or it was read from a docstring where OTHER was read from the
 * definition and the two differ for a caller. The return annotation is kept from whichever has one.
 */
export function betterSignature(runtime: SurfaceSignature | null, other: SurfaceSignature | null): SurfaceSignature | null {
  if (!runtime || !other) return runtime ?? other;
  const losesParameters = hasCatchAll(runtime) && forwardsTo(runtime, other) && callerShape(runtime) !== callerShape(other);
  // Two readings that say the same to a caller keep the runtime's (its default texts: a stub writes `...`).
  // A stub is written by hand beside the callable, not read from it: where it leaves out keywords the callable's own
  // docstring names (numpy 2.1-2.2's dtypes.pyi gives StringDType `__new__(cls, /)`, its docstring and C parser
  // take `na_object=, coerce=`), it is not the better reading.
  const stubLosesKeywords = other.source === 'stub' && namedKeywords(runtime).some((k) => !acceptsKeyword(other, k));
  const proseAgainstDefinition = !fromDefinition(runtime) && fromDefinition(other) && !sameForCallers(runtime, other) && !stubLosesKeywords;
  const chosen = losesParameters || proseAgainstDefinition ? other : runtime;
  const returns = chosen.returns || (chosen === runtime ? other.returns : runtime.returns);
  return returns && returns !== chosen.returns ? { ...chosen, returns } : chosen;
}

function namedKeywords(signature: SurfaceSignature): string[] {
  return signature.parameters.filter((p) => p.kind === 'positional_or_keyword' || p.kind === 'keyword_only').map((p) => p.name);
}

const CALLABLE_KINDS = new Set(['class', 'function', 'method']);

/** RUNTIME with each callable's signature reconciled with static extraction's at the same version (betterSignature). */
export function withBetterSignatures(runtime: Surface, staticSurface: Surface): Surface {
  const statics = new Map(staticSurface.apis.map((a) => [a.path, a] as const));
  let changed = false;
  const apis = runtime.apis.map((api) => {
    const other = statics.get(api.path);
    if (!other || !CALLABLE_KINDS.has(api.kind)) return api;
    const signature = betterSignature(api.signature, other.signature);
    if (signature === api.signature) return api;
    changed = true;
    return { ...api, signature };
  });
  return changed ? { ...runtime, apis } : runtime;
}
