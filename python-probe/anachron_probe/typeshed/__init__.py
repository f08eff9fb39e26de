"""The standard library per Python version from typeshed's stdlib stubs (read with ast, never imported)."""
