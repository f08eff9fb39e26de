"""The standard library's surface per Python minor, from typeshed's stubs.

At one commit, a minor's surface is the stubs evaluated at that minor on every platform (a name any platform has
is present; the platforms that have it are recorded when not all do). typeshed deletes a version's branches when
it stops supporting it, so an old minor is read from the newest commit that still supported it; what changed
between that commit and the next one's view of the following minor is taken as typeshed's later knowledge, not as
a change in Python: a minor's surface follows the next minor's wherever its own commit sees no difference between
the two (delta propagation, see ``chain``)."""
import json

from .conditions import PLATFORMS
from .records import RecordWriter
from .stubset import StubSet, View


def evaluate_commit(files, minors):
    """{minor: (records, platform_specific, incomplete modules, unknown conditions)} for one commit's files."""
    stubs = StubSet(files)
    out = {}
    for minor in minors:
        per_platform = {}
        unknown = set()
        incomplete = set()
        for platform in PLATFORMS:
            view = View(stubs, minor, platform)
            writer = RecordWriter(view)
            per_platform[platform] = writer.run()
            unknown |= view.unknown_conditions
            incomplete |= writer.incomplete
        records = {}
        specific = {}
        for platform in PLATFORMS:
            for path, rec in per_platform[platform].items():
                records.setdefault(path, rec)
        for path in records:
            having = [p for p in PLATFORMS if path in per_platform[p]]
            if len(having) < len(PLATFORMS):
                specific[path] = ", ".join(having)
        out[minor] = (records, specific, incomplete, unknown)
    return out


def _shape(rec):
    if rec is None:
        return None
    sig = rec.get("signature")
    params = None if sig is None else [(p["name"], p["kind"], p["default"] is not None) for p in sig["parameters"]]
    return json.dumps([rec["kind"], params])


def chain(newest, older):
    """Per-minor records from several commits. ``newest``: {minor: records} of the newest commit (its own minors);
    ``older``: [(commit's own minor, {minor: records} at that commit for its own minor and the next one)], newest
    first. For an old minor M read at commit C: a path C sees the same at M and M+1 takes M+1's final record (the
    later commit knows better); a path C sees differently takes C's record at M; a path C knows at neither minor
    but the final M+1 has is typeshed's later addition: kept, and listed as inherited (the runtime decides)."""
    final = dict(newest)
    inherited = {}
    for minor, views in older:
        at, nxt = views[minor], views[minor + 1]
        later = final[minor + 1]
        result = {}
        carried = []
        for path in sorted(set(at) | set(nxt) | set(later)):
            a, b = at.get(path), nxt.get(path)
            if _shape(a) == _shape(b):
                if a is None:
                    if path in later:
                        result[path] = later[path]
                        carried.append(path)
                    continue
                result[path] = later.get(path, a) if path in later else None
                if result[path] is None:
                    del result[path]  # typeshed later found it absent at M+1: it was a stub error
            elif a is not None:
                result[path] = a
        final[minor] = result
        inherited[minor] = carried
    return final, inherited
