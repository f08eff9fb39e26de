"""The runtime probe's .pyi reader, fed from the source tree instead of an installed package."""
from ..stubs import StubIndex


class TreeStubIndex(StubIndex):
    def __init__(self, extractor):
        StubIndex.__init__(self, extractor.library, [], True)
        self.x = extractor
        self.paths = extractor.layout.stubs  # module name -> (path, is_package)

    def _read(self, module_name):
        entry = self.paths.get(module_name)
        if entry is None:
            return None
        path, is_package = entry
        text = self.x.read_text(path)
        if text is None:
            self.errors[module_name] = "stub blob missing (%s)" % path
            return None
        return path, is_package, text

    def directory_stubs(self, module_name):
        if module_name in self._dir_stubs:
            return self._dir_stubs[module_name]
        folder = module_name if module_name + ".__init__" in self.paths or any(
            n.startswith(module_name + ".") for n in self.paths) else module_name.rsplit(".", 1)[0]
        names = sorted(n for n in self.paths if n == folder or (n.startswith(folder + ".") and "." not in n[len(folder) + 1:]))
        self._dir_stubs[module_name] = names
        return names
