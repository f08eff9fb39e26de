"""Newer syntax read by an older interpreter: PEP 695 type parameters removed.

Stubs and modules of recent releases write ``def f[T](x: T) -> T``, ``class Box[T]:`` and ``type Alias[T] = ...``,
which Python 3.11's parser rejects. Type parameters carry nothing the surface records (names, kinds, parameter
names and defaults), so dropping them gives a module this interpreter can read with the same public names."""
import io
import tokenize


def drop_type_parameters(text):
    """``text`` without PEP 695 type parameter lists, ``type X = ...`` read as ``X = ...``; None when nothing was
    changed or the text does not tokenize."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    line_starts = [0]
    for line in text.splitlines(keepends=True):
        line_starts.append(line_starts[-1] + len(line))

    def offset(pos):
        return line_starts[pos[0] - 1] + pos[1]

    cuts = []  # (start, end) character spans to remove
    for i, tok in enumerate(tokens):
        if tok.type != tokenize.NAME or i + 2 >= len(tokens):
            continue
        name, bracket = tokens[i + 1], tokens[i + 2]
        starts_statement = i == 0 or tokens[i - 1].type in (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT,
                                                           tokenize.DEDENT) or tokens[i - 1].string in (";", "@")
        if tok.string in ("def", "class"):
            pass
        elif tok.string == "type" and starts_statement and name.type == tokenize.NAME and \
                bracket.string in ("=", "["):
            cuts.append((offset(tok.start), offset(name.start)))  # "type X = v" is read as "X = v"
        else:
            continue
        if name.type != tokenize.NAME or bracket.string != "[":
            continue
        depth = 0
        for close in tokens[i + 2:]:
            if close.string in ("[", "(", "{"):
                depth += 1
            elif close.string in ("]", ")", "}"):
                depth -= 1
                if depth == 0:
                    cuts.append((offset(bracket.start), offset(close.end)))
                    break
    if not cuts:
        return None
    out = []
    last = 0
    for start, end in sorted(cuts):
        out.append(text[last:start])
        last = end
    out.append(text[last:])
    return "".join(out)
