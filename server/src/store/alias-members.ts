// python-probe records the members of a class once, under one path; its other paths (scipy.interpolate.pchip is
// PchipInterpolator, torch.Storage is FloatStorage) carry `members_at` instead. The builder gives every path its
// members, so `pchip.derivative` resolves; shared-subtrees.ts then stores the copies once again.
import type { Surface, SurfaceApi } from './surface.js';

/** Alias chains longer than this are a probe bug, not a library. */
const MAX_HOPS = 8;

export function withAliasMembers(surface: Surface): Surface {
  const aliases = surface.apis.filter((a) => a.members_at && a.members_at !== a.path);
  if (aliases.length === 0) return surface;
  const byPath = new Map(surface.apis.map((a) => [a.path, a] as const));
  const sorted = surface.apis.map((a) => a.path).sort();
  const descendants = (home: string): string[] => {
    const prefix = `${home}.`;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < sorted.length && sorted[i]!.startsWith(prefix); i++) out.push(sorted[i]!);
    return out;
  };
  const added: SurfaceApi[] = [];
  for (const alias of aliases) {
    let home = alias.members_at!;
    for (let hops = 0; hops < MAX_HOPS && byPath.get(home)?.members_at && byPath.get(home)!.members_at !== home; hops++) home = byPath.get(home)!.members_at!;
    if (home === alias.path || home.startsWith(`${alias.path}.`) || alias.path.startsWith(`${home}.`)) continue;
    for (const path of descendants(home)) {
      const copy = `${alias.path}${path.slice(home.length)}`;
      if (!byPath.has(copy)) {
        const record = { ...byPath.get(path)!, path: copy };
        byPath.set(copy, record);
        added.push(record);
      }
    }
  }
  return { ...surface, apis: [...surface.apis, ...added] };
}
