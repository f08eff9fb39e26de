"""typeshed's branch conditions (``sys.version_info >= (3, 10)``, ``sys.platform == "win32"``, ``TYPE_CHECKING``)
evaluated for one Python minor on one platform."""
import ast

# The platforms evaluated: sys.platform values typeshed tests, each a runtime somewhere.
PLATFORMS = ("linux", "darwin", "win32")
# A patch-level test (``>= (3, 13, 8)``) counts as true at the minor: a tracked minor stands for its newest patch.
_NEWEST_PATCH = 1000


class UnknownCondition(Exception):
    pass


def _is_sys_attr(node, name):
    return (
        isinstance(node, ast.Attribute)
        and node.attr == name
        and isinstance(node.value, ast.Name)
        and node.value.id == "sys"
    )


def _version_tuple(node):
    if not isinstance(node, ast.Tuple) or not all(isinstance(e, ast.Constant) for e in node.elts):
        raise UnknownCondition(ast.dump(node))
    return tuple(e.value for e in node.elts)


def _compare(op, left, right):
    # Tuples of ints (and an occasional release-level string) compare element-wise, as Python does.
    if isinstance(op, ast.GtE):
        return left >= right
    if isinstance(op, ast.Gt):
        return left > right
    if isinstance(op, ast.Lt):
        return left < right
    if isinstance(op, ast.LtE):
        return left <= right
    if isinstance(op, ast.Eq):
        return left == right
    if isinstance(op, ast.NotEq):
        return left != right
    raise UnknownCondition(type(op).__name__)


def evaluate(node, minor, platform):
    """True or False for ``node`` at Python 3.``minor`` on ``platform``; UnknownCondition for anything else."""
    if isinstance(node, ast.BoolOp):
        values = [evaluate(v, minor, platform) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return not evaluate(node.operand, minor, platform)
    if isinstance(node, ast.Name) and node.id == "TYPE_CHECKING":
        return True
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left, op, right = node.left, node.ops[0], node.comparators[0]
        if _is_sys_attr(left, "version_info"):
            version = (3, minor, _NEWEST_PATCH)
            wanted = _version_tuple(right)
            return _compare(op, version[: len(wanted)] if len(wanted) < 3 else version, wanted)
        if isinstance(left, ast.Subscript) and _is_sys_attr(left.value, "version_info"):
            return _compare(op, (3, minor), _version_tuple(right))
        if _is_sys_attr(left, "platform") and isinstance(right, ast.Constant) and isinstance(right.value, str):
            return _compare(op, platform, right.value)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "startswith"
        and _is_sys_attr(node.func.value, "platform")
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
    ):
        return platform.startswith(node.args[0].value)
    raise UnknownCondition(ast.dump(node)[:200])
