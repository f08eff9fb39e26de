"""The --provenance KEY=VALUE options every probe command takes, recorded verbatim in its surface."""


def provenance_map(parser, items):
    """KEY=VALUE strings as a dict; a malformed one is a usage error through `parser`."""
    prov = {}
    for item in items:
        if "=" not in item or not item.split("=", 1)[0]:
            parser.error("--provenance expects KEY=VALUE, got %r" % item)
        k, v = item.split("=", 1)
        prov[k] = v
    return prov
