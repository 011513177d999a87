"""Where a file implements a trait or interface (`impl<T, E> Reply for Result<T, E>`, `class
Cache implements Store`): the lines a query asking where it is implemented is answered by
(definition_sites). QA on seanmonstar/warp, `where is the Reply trait implemented for Result`
pointed src/reply.rs at `pub trait Reply`, the trait's declaration."""

from __future__ import annotations

import re
from collections.abc import Sequence

# or a Rust impl's head written as the query (`impl FromStr for Value`)
_IMPL_HEAD = r"^\s*(?:unsafe\s+)?impl\b"
_IMPLEMENTED = re.compile(rf"\bimplement(?:ed|s)?\b|{_IMPL_HEAD}", re.IGNORECASE)
# the type written after `implemented for` (`for Result`, `for the Box type`, `for `Json``)
_COMMENT = re.compile(r"^\s*(?://|/\*|\*|#)")  # a doc comment's `a type that implements Reply`
_FOR_TYPE = re.compile(r"\bimplemented\s+for\s+(?:the\s+)?`?([A-Za-z_][\w:]*)", re.IGNORECASE)
# or the type the query makes the subject: `where does Value implement Display` (QA on
# serde-rs/json: the hit first was `impl Display for Type`, in src/value/index.rs)
_TYPE_IMPLEMENTING = re.compile(
    r"\bwhere\s+(?:do|does)\s+(?:the\s+)?`?([A-Z][\w:]*)`?\s+(?:type\s+)?implement\b"
    # an impl's head: its type (`impl<T> From<Vec<T>> for Value`, `for &'a mut Map`)
    rf"|{_IMPL_HEAD}.*?\sfor\s+&?(?:'\w+\s+)?(?:mut\s+)?([A-Za-z_][\w:]*)"
)


# the trait an impl's head writes, with its arguments (`From<Vec<T>>` in `impl<T> From<Vec<T>>
# for Value`): QA on serde-rs/json pointed that query at `impl From<$ty> for Value`, and
# `impl Default for CompactFormatter` (derived, no impl) at PrettyFormatter's impl
_HEAD_TRAIT = re.compile(rf"{_IMPL_HEAD}(?:\s*<.*?>)?\s+(\S.*?)\s+for\s")


def _asked_type(query: str) -> str | None:
    """The type the query asks a trait's or interface's implementation for, else None."""
    found = _FOR_TYPE.search(query) or _TYPE_IMPLEMENTING.search(query)
    typed = next((group for group in found.groups() if group), None) if found else None
    return typed.split("::")[-1] if typed is not None else None


def implemented_type(query: str) -> str | None:
    """The type a query asking where something is implemented names (`for UnionFile`,
    `where does Value implement`), else None."""
    return _asked_type(query) if asks_implementations(query) else None


def asks_implementations(query: str) -> bool:
    """Whether the query asks where something is implemented (`implemented`, `implements`)."""
    return _IMPLEMENTED.search(query) is not None


def implementation_line(lines: Sequence[str], name: str, query: str) -> int | None:
    """The first line (1-based) of `lines` implementing `name`: Rust's `impl ... Name for
    Type` or an `implements ... Name` clause; of those, the first for the type the query
    writes after `implemented for`, when it writes one and a line is for it."""
    found, for_type = _implementing_lines(lines, name, query)
    head = _HEAD_TRAIT.match(query)
    if head is None:
        found = for_type or found
    else:  # an impl's head: for that type only, the trait as written (`From<Vec<T>>`) first
        written = re.sub(r"\s+", "", head.group(1))
        found = [n for n in for_type if written in re.sub(r"\s+", "", lines[n - 1])] or for_type
    return found[0] if found else None


def implements_as_asked(lines: Sequence[str], name: str, query: str) -> bool:
    """Whether `lines` implement `name` for the type the query writes after `implemented
    for` (for any type when it writes none)."""
    found, for_type = _implementing_lines(lines, name, query)
    return bool(for_type) or (bool(found) and _asked_type(query) is None)


def _implementing_lines(lines: Sequence[str], name: str, query: str) -> tuple[list[int], list[int]]:
    """The lines implementing `name`, and of those the ones for the type the query writes
    after `implemented for` (none when it writes none)."""
    whole = rf"(?<![\w$]){re.escape(name)}(?![\w$])"
    # the name is the trait (`impl<T> Reply for Box<T>`), not a bound (`impl<R: Reply> Func`)
    rust = re.compile(rf"^\s*(?:unsafe\s+)?impl\b[^{{;]*{whole}(?:<[^{{;]*>)?\s+for\s")
    clause = re.compile(rf"\bimplements\b[^{{;]*{whole}")
    found = [
        n
        for n, line in enumerate(lines, start=1)
        if (rust.search(line) or clause.search(line)) and not _COMMENT.match(line)
    ]
    typed = _asked_type(query)
    if typed is None:
        return found, []
    wanted = re.compile(rf"(?<![\w$]){re.escape(typed)}(?![\w$])")
    return found, [n for n in found if wanted.search(lines[n - 1].partition(" for ")[2])]


def block_end(lines: Sequence[str], start: int, most: int) -> int:
    """The line closing the block opened at `start` (a `}` at its indentation), at most
    `most` lines from it."""
    head = lines[start - 1]
    indent = head[: len(head) - len(head.lstrip())]
    last = min(len(lines), start + most - 1)
    for n in range(start + 1, last + 1):
        if lines[n - 1].startswith(indent + "}"):
            return n
    return last
