"""C3 linearisation (the order Python gives a class's MRO), shared by the static extractor and the typeshed reader."""


def c3_merge(first, sequences, key):
    """FIRST, then the C3 merge of SEQUENCES (the bases' linearisations, then the bases in order), items compared by
    KEY. Where the sequences are inconsistent, the rest follows depth-first, each item once."""
    out = [first]
    seqs = [list(s) for s in sequences if s]
    while True:
        seqs = [s for s in seqs if s]
        if not seqs:
            return out
        for s in seqs:
            head = key(s[0])
            if not any(head == key(x) for t in seqs for x in t[1:]):
                break
        else:
            seen = set(key(x) for x in out)
            for s in seqs:
                for x in s:
                    if key(x) not in seen:
                        seen.add(key(x))
                        out.append(x)
            return out
        out.append(s[0])
        seqs = [t[1:] if key(t[0]) == head else t for t in seqs]
