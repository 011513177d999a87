"""C#: `#if`/`#else` around alternative member heads sharing one body (serilog's
`#if FEATURE_SPAN` parameter lists) is beyond tree-sitter-c-sharp, which parses `#if` as a
node that must hold whole members, and then makes the whole file one ERROR. When a file's
parse has an error, it is parsed again with every conditional directive and every
`#else`/`#elif` branch written over with spaces: the first branch is kept, as ctags reads
it. A name before a dot that names a member of the type around it is no reference to a
type of that name: csharp_members."""

from __future__ import annotations

import re

from processors.symbols.languages.base import LanguageRules
from processors.symbols.languages.csharp_members import without_own_members

_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|elif|else|endif)\b[^\n]*", re.M)


def first_branches(src: bytes) -> bytes:
    """`src` with the `#if`/`#endif` lines and each `#else`/`#elif` branch written over with
    spaces, nested conditionals counted; the same length, so offsets and lines of the tree
    stay those of the file."""
    if b"#" not in src:
        return src
    fixed = bytearray(src)
    depth = 0
    skipping_at: int | None = None  # the depth whose later branch is being written over
    skip_from = 0
    for found in _DIRECTIVE.finditer(src):
        word = found.group(1)
        if word == b"if":
            depth += 1
        elif word in (b"elif", b"else"):
            if skipping_at is None:
                skipping_at, skip_from = depth, found.start()
        else:  # endif
            if skipping_at == depth:
                _blank(fixed, skip_from, found.start())
                skipping_at = None
            depth -= 1
        _blank(fixed, found.start(), found.end())
    return bytes(fixed)


def _blank(fixed: bytearray, start: int, end: int) -> None:
    for i in range(start, end):
        if fixed[i] not in (0x0A, 0x0D):  # keep the line breaks
            fixed[i] = 0x20


RULES = {
    "csharp": LanguageRules(repair_on_error=first_branches, without_own_members=without_own_members)
}
