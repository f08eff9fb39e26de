"""Dotted names in Python source (of ``ast`` expressions, of relative imports), for every reader of it: the static
extractor, the stub reader, the docs reader."""
import ast


def dotted_name(node, through_subscripts=False):
    """``a.b.c`` for a chain of attributes on a name, else None; with ``through_subscripts`` the innermost
    subscript stands for what it subscripts (``Generic[T]`` -> ``Generic``, ``floating[_64Bit]`` -> ``floating``)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    if through_subscripts and isinstance(node, ast.Subscript):
        return dotted_name(node.value, True)
    return None


def absolute_import(importer, importer_is_package, module, level):
    """The module ``from <level dots><module> import ...`` in module ``importer`` names (``module`` itself when the
    import is absolute)."""
    if not level:
        return module
    base = importer.split(".")
    if not importer_is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    if module:
        base = base + module.split(".")
    return ".".join(base)


def template_text(node, field):
    """The text of a string constant or f-string node, each replacement field written as ``field``; else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else field for v in node.values)
    return None
