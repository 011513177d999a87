"""A CLI's own error pasted as it prints it: its name, a colon, the message (`eza: Option
--level is useless without options --recurse or --tree`, which eza's main.rs writes as
`eprintln!("eza: {error}")`, as `ls: cannot access ...` and `rg: ...` print theirs).

No marker opens it (`error:`), so it was no pasted message, and its words ranked the
completion scripts listing every flag first: QA on eza-community/eza put completions/zsh/_eza
and _eza.ps1 above src/options/error.rs (writing `Option {a} is useless without options {b1}
or {b2}`, fifth) and src/options/dir_action.rs (raising it, third). The name must be the
project's own (project_words: the repository's id, its manifest's package name, its README's
title), and the message must open with a capital, as a sentence does: `theme: fix ...` is a
change request's scope.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from processors.tokenizer import tokenize

# the first line: a name and a colon, then a message opening with a capital
_PREFIXED = re.compile(r"^(\s*)([A-Za-z][\w.-]{0,39}):[ \t]+(?=[A-Z])")
_MARKED = "error: "  # what pasted_message reads after a program's name (`fd: error: ...`)
# a marker after the name already (`fd: error: ...`, `eza: Error: ...`): read as it is
_MARKER_AFTER = re.compile(r"(?:error|warning|fatal|panic)\w*\s*:", re.IGNORECASE)


def opens_with_program(query: str) -> bool:
    """Whether `query` opens as a program's output might (`name: Message`): worth reading
    the project's names for."""
    found = _PREFIXED.match(query)
    return found is not None and not _MARKER_AFTER.match(query, found.end())


def program_marked(query: str, programs: Callable[[], frozenset[str]]) -> str:
    """`query` with the marker a program's error is read by inserted after its name, when it
    opens with the project's own name (`programs`: its words) and a message; else as it is."""
    found = _PREFIXED.match(query)
    if found is None or _MARKER_AFTER.match(query, found.end()):
        return query
    words = set(tokenize(found.group(2)))
    if not words or not words <= programs():
        return query
    return query[: found.end()] + _MARKED + query[found.end() :]
