"""The line naming a declaration (`pub fn json<T>(val: &T) -> Json`, below its attributes), and
a hit's snippet holding it where the query names that declaration (hit_details)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from streams.stores.views.symbol_spans import Declared

ATTRIBUTE = re.compile(r"^\s*(?:#!?\[|@)")  # a Rust attribute, a decorator or annotation
_SHOWN = re.compile(r"^(\d+): ", re.MULTILINE)  # a snippet line's number


def naming_line(lines: Sequence[str], worded: Sequence[int], name: str) -> int | None:
    """The first of `worded` (a declaration's non-blank lines) writing `name` whole outside
    an attribute: `pub struct Opts {` below clap's `#[derive(Parser)] #[command(...)]`."""
    whole = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    return next(
        (n for n in worded if whole.search(lines[n - 1]) and not ATTRIBUTE.match(lines[n - 1])),
        None,
    )


def with_naming_line(
    snippet: str, lines: Sequence[str], declared: Declared, most: int
) -> list[int] | None:
    """The line numbers of `snippet` (at most `most`) with `declared`'s naming line among
    them, the last of the others giving way; None when it is there already or not found.
    QA on seanmonstar/warp: `reply::json` showed only `tracing::error!("reply::json error:
    {}", err);`, the one line inside `fn json` writing the qualified name whole, not the
    signature an agent asking for `reply::json` reads first."""
    shown = [int(n) for n in _SHOWN.findall(snippet)]
    lo, hi = declared.start_line, min(declared.end_line, len(lines))
    worded = [n for n in range(lo, hi + 1) if lines[n - 1].strip()]
    naming = naming_line(lines, worded, declared.name)
    if naming is None or naming in shown or not shown:
        return None
    return sorted([naming, *shown[: most - 1]])


def named_first(reasons: list[str], named: str, prefix: str) -> list[str]:
    """`reasons` with the `symbol:` reason of the declaration the query names leading the
    others (the search names a file's declarations by their simple names' words)."""
    rest = [r for r in reasons if r != named]
    at = next((i for i, r in enumerate(rest) if r.startswith(prefix)), len(rest))
    return [*rest[:at], named, *rest[at:]]
