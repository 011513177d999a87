"""A CLI's own error pasted as it prints it: its name, a colon, the message (`eza: Option
--level is useless without options --recurse or --tree`, which eza's main.rs writes as
`eprintln!("eza: {error}")`, as `ls: cannot access ...` and `rg: ...` print theirs).

No marker opens it (`error:`), so it was no pasted message, and its words ranked the
completion scripts listing every flag first: QA on eza-community/eza put completions/zsh/_eza
and _eza.ps1 above src/options/error.rs (writing `Option {a} is useless without options {b1}
or {b2}`, fifth) and src/options/dir_action.rs (raising it, third). The name must be the
project's own (project_words: the repository's id, its manifest's package name, its README's
title), and the message must open with a capital, as a sentence does: `theme: fix ...` is a
change request's scope. A message opening lowercase does when its first word says what went
wrong (_FAULT: `zoxide: unsupported version (got 4, supports 3)`, which zoxide's main.rs
prints as `zoxide: {e}`), never a change's verb (`lister: add a --tree option`). The name in
brackets opens a line too, as a library prefixes its messages (`[react-router] Route config
in "app/routes.ts" must be an array.`): QA on remix-run/react-router read it as no message,
and on ajeetdsouza/zoxide the completion scripts ranked above src/db/mod.rs, bailing with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from processors.tokenizer import tokenize

# the first line: a name and a colon, or a name in brackets, then the message
_PREFIXED = re.compile(
    r"^(\s*)(?:([A-Za-z][\w.-]{0,39}):|\[(@?[A-Za-z][\w./-]{0,39})\])[ \t]+(?=[A-Za-z])"
)
# the first word of a message saying what went wrong, lowercase (`unsupported version`,
# `failed to open`, `no such file`); a capital opens a message too, as a sentence
_FAULT = re.compile(
    r"(?:[A-Z]|un\w+(?:ed|able)\b|(?:unknown|invalid|cannot|can't|could|couldn't|failed|"
    r"unable|missing|no|not|unexpected|bad|illegal|expected|duplicate|too|error)\b)"
)
_MARKED = "error: "  # what pasted_message reads after a program's name (`fd: error: ...`)
# a marker after the name already (`fd: error: ...`, `eza: Error: ...`): read as it is
_MARKER_AFTER = re.compile(r"(?:error|warning|fatal|panic)\w*\s*:", re.IGNORECASE)


def opens_with_program(query: str) -> bool:
    """Whether `query` opens as a program's output might (`name: Message`): worth reading
    the project's names for."""
    found = _PREFIXED.match(query)
    return (
        found is not None
        and not _MARKER_AFTER.match(query, found.end())
        and _FAULT.match(query, found.end()) is not None
    )


def program_marked(query: str, programs: Callable[[], frozenset[str]]) -> str:
    """`query` with the marker a program's error is read by inserted after its name, when it
    opens with the project's own name (`programs`: its words) and a message; else as it is."""
    if not opens_with_program(query):
        return query
    found = _PREFIXED.match(query)
    assert found is not None
    words = set(tokenize(found.group(2) or found.group(3)))
    if not words or not words <= programs():
        return query
    return query[: found.end()] + _MARKED + query[found.end() :]
