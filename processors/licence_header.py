"""A file's leading licence header, which a bundle's spans leave out.

Spans grow around the declarations they show, up to the file's first line: on uber-go/zap a
bundle's span of buffered_write_syncer.go opened with its 20-line MIT licence (lines 1-53 at
3,000 tokens), as did zapio/writer.go's. A licence is the same text in every file and no
change request's answer. The header is the comment block the file opens with (after blank
lines and a shebang), when it names a copyright or a licence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

MAX_HEADER_LINES = 60  # a longer opening comment is the module's own documentation
_COMMENT = re.compile(r"^\s*(//|#|/\*|\*|\*/|--|;;|<!--|-->)")
# a block comment left open on its first line: its inner lines need no `*` (the Apache header
# of every commons-* Java file is `/*`, then its text indented, then ` */`)
_BLOCKS = (("/*", "*/"), ("<!--", "-->"))
_LICENCE = re.compile(
    r"copyright|licen[cs]e|permission is hereby granted|spdx-license-identifier"
    r"|all rights reserved",
    re.IGNORECASE,
)


def after_licence(lines: Sequence[str]) -> int:
    """The first line (1-based) after the licence header `lines` open with; 1 when they open
    with none."""
    at = 0
    while at < len(lines) and (not lines[at].strip() or lines[at].startswith("#!")):
        at += 1
    start, named, closer = at, False, ""
    while at < len(lines) and at - start < MAX_HEADER_LINES:
        line = lines[at]
        if closer:  # inside a block comment, whatever the line opens with
            closer = "" if closer in line else closer
        elif _COMMENT.match(line):
            closer = _opened_block(line.strip())
        else:
            break
        named = named or bool(_LICENCE.search(line))
        at += 1
    if not named or closer or at - start >= MAX_HEADER_LINES:
        return 1
    while at < len(lines) and not lines[at].strip():
        at += 1
    return at + 1


def names_licence(words: Iterable[str]) -> bool:
    """Whether any of a query's `words` names a licence (`license`, `copyright`): only such a
    query is answered by a licence header's lines."""
    return any(_LICENCE.search(word) for word in words)


def _opened_block(line: str) -> str:
    """The closer of the block comment `line` opens and leaves open; "" when none."""
    for opener, closer in _BLOCKS:
        if line.startswith(opener) and closer not in line[len(opener) :]:
            return closer
    return ""
