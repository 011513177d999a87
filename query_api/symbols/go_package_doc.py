"""A Go file holding only its package's documentation comment (`doc.go`): what its outline
says, since it declares nothing and an empty outline read as an empty or unread file (QA on
gorilla/mux: outline(doc.go), 305 lines of package documentation, answered "0 symbols" and
nothing else)."""

from __future__ import annotations

import re

_PACKAGE = re.compile(r"package[ \t]+([A-Za-z_]\w*)[ \t]*(?://.*)?")


def package_doc(text: str) -> tuple[str, int] | None:
    """(the package's name, the line of its `package` clause) when `text` is comments and
    that clause alone, with a comment before it; else None."""
    inside = False
    commented = False
    clause: tuple[str, int] | None = None
    for number, line in enumerate(text.split("\n"), start=1):
        rest = line.strip()
        if inside:
            inside = "*/" not in rest
            rest = rest.split("*/", 1)[1].strip() if not inside else ""
        if rest.startswith("/*"):
            commented = True
            inside = "*/" not in rest[2:]
            rest = rest[2:].split("*/", 1)[1].strip() if not inside else ""
        if not rest or rest.startswith("//"):
            commented = commented or bool(rest)
            continue
        found = _PACKAGE.fullmatch(rest)
        if found is None or clause is not None:
            return None  # code, or a second clause
        clause = (found.group(1), number)
    return clause if clause is not None and commented else None
