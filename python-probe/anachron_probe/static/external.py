"""Surfaces of other libraries (``--external-surface numpy=FILE``): what a library re-exports from a dependency
(scipy < 1.9 puts numpy's ``__all__`` into its own namespace) is described by that dependency's surface."""
import gzip
import json


class ExternalSurface(object):
    def __init__(self, library, path=None, data=None, alls=None, origin=None):
        self.library = library
        self.path = path
        self.alls = alls or {}  # module -> its __all__, when known (from an extraction of the source)
        self.origin = origin or path
        if data is None:
            opener = gzip.open if path.endswith(".gz") else open
            with opener(path, "rb") as f:
                data = json.loads(f.read().decode("utf-8"))
        self.version = data.get("version")
        self.records = {}
        self.children = {}
        for a in data.get("apis", []):
            p = a.get("path")
            if not isinstance(p, str):
                continue
            self.records[p] = a
            parent = p.rsplit(".", 1)[0] if "." in p else ""
            self.children.setdefault(parent, []).append(p)
        self.modules = set(m.get("name") for m in data.get("modules", []) if m.get("imported"))

    def record(self, path):
        return self.records.get(path)

    def module_names(self, module):
        """The module's ``__all__`` when known, else the names it exposes (its module-level records)."""
        if module in self.alls:
            return list(self.alls[module])
        return sorted(p.rsplit(".", 1)[1] for p in self.children.get(module, []))

    def members(self, path):
        return [self.records[p] for p in sorted(self.children.get(path, []))]

    def subtree(self, path):
        """Records one and two levels below ``path`` (a module's names and their class members)."""
        out = []
        for p in sorted(self.children.get(path, [])):
            out.append(self.records[p])
            if self.records[p].get("kind") == "class":
                for q in sorted(self.children.get(p, [])):
                    out.append(self.records[q])
        return out


def surface_from_git(library, spec):
    """``GITDIR@TAG``: extract ``library`` statically at TAG (in this process) and describe it."""
    from .source import GitTree
    from .cli import extract, build_surface

    git_dir, _, tag = spec.rpartition("@")
    tree = GitTree(git_dir, tag)
    try:
        version = tag[1:] if tag[:1] in "vV" else tag
        x, records, modules, errors = extract(library, tree, None, version)
    finally:
        tree.close()
    data = build_surface(library, version, {}, x, records, modules, errors)
    alls = {}
    for name, st in x.modules.items():
        if st.status == "done" and st.all_ is not None and st.all_.complete:
            alls[name] = list(st.all_.items)
    return ExternalSurface(library, data=data, alls=alls, origin="static %s %s" % (library, tag))
