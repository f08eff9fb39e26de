// Libraries re-export classes under many paths (torch.nn.functional.Tensor, torch.sparse.FloatTensor, …), and the
// surfaces list every member under every path: torch's 176k paths are two-thirds copies of Tensor's 600 members.
// After the build, a node whose whole subtree (names and cells, in every version) equals another node's keeps its
// own cells but drops its descendants and points at the other node (apis.alias_of); the reader follows that pointer
// for children. Only exact equality is shared, so no lookup can tell the difference.
import { createHash } from 'node:crypto';
import type { SqlDatabase } from './sqlite/database.js';

export interface SubtreeSharing {
  /** Nodes that now point at an equal subtree. */
  aliased: number;
  /** Descendant rows removed with their spans. */
  removed: number;
}

/**
 * @param nodes every node of the tree by dotted path (as inserted into `apis`)
 * @param cellKeys per node id, a string that is equal for two nodes exactly when their own rows and spans are
 */
export function shareEqualSubtrees(db: SqlDatabase, nodes: ReadonlyMap<string, number>, cellKeys: ReadonlyMap<number, string>): SubtreeSharing {
  const children = new Map<string, string[]>();
  for (const path of nodes.keys()) {
    const cut = path.lastIndexOf('.');
    if (cut < 0) continue;
    const parent = path.slice(0, cut);
    let list = children.get(parent);
    if (!list) children.set(parent, (list = []));
    list.push(path);
  }
  const depth = (p: string) => p.split('.').length;
  const byDepthDesc = [...nodes.keys()].sort((a, b) => depth(b) - depth(a));
  // full: the node's own cells and its subtree; members: its subtree alone (what an alias must share).
  const full = new Map<string, string>();
  const members = new Map<string, string>();
  for (const path of byDepthDesc) {
    const kids = (children.get(path) ?? []).sort();
    const h = createHash('sha1');
    for (const kid of kids) h.update(`${kid.slice(kid.lastIndexOf('.') + 1)}\u0000${full.get(kid)}\u0001`);
    const memberHash = h.digest('hex');
    if (kids.length > 0) members.set(path, memberHash);
    full.set(path, createHash('sha1').update(cellKeys.get(nodes.get(path)!) ?? '').update(memberHash).digest('hex'));
  }

  const groups = new Map<string, string[]>();
  for (const [path, hash] of members) {
    let list = groups.get(hash);
    if (!list) groups.set(hash, (list = []));
    list.push(path);
  }
  const order = (a: string, b: string) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0);
  for (const list of groups.values()) list.sort(order);

  const removedPaths = new Set<string>();
  const isRemoved = (p: string) => {
    for (let cut = p.lastIndexOf('.'); cut > 0; cut = p.lastIndexOf('.', cut - 1)) if (removedPaths.has(p.slice(0, cut))) return true;
    return false;
  };
  const setAlias = db.prepare('UPDATE apis SET alias_of = ? WHERE id = ?');
  const deleteNode = db.prepare('DELETE FROM apis WHERE id = ?');
  const deleteSpans = db.prepare('DELETE FROM spans WHERE api_id = ?');
  let aliased = 0;
  let removed = 0;
  const dropDescendants = (path: string) => {
    for (const kid of children.get(path) ?? []) {
      dropDescendants(kid);
      const id = nodes.get(kid)!;
      deleteSpans.run(id);
      deleteNode.run(id);
      removed++;
    }
  };
  // Shallow nodes first: an alias target is never below a node that is later aliased, since its ancestors are
  // shallower than it and it is no deeper than the node that points at it.
  for (const path of [...members.keys()].sort(order)) {
    if (isRemoved(path)) continue;
    const target = groups.get(members.get(path)!)!.find((p) => !isRemoved(p) && !removedPaths.has(p));
    if (!target || target === path) continue;
    setAlias.run(nodes.get(target)!, nodes.get(path)!);
    dropDescendants(path);
    removedPaths.add(path);
    aliased++;
  }
  return { aliased, removed };
}
