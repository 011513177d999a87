"""A request about a declaration's doc comment (`Fix typo in MaxDate comment`, `update JSDoc
for @Min`, `where is ProgressBar::println documented`) has the hit's range open at that
comment.

A hit on a declaration spans the declaration, and the doc comment above it (`/** ... */`,
`///`, `#`) is no part of it: QA on typestack/class-validator, `Fix Typo in MaxDate comment`
pointed src/decorator/date/MaxDate.ts at lines 16-31, the function, and the typo fixed was on
line 14, its JSDoc. When the request names a comment, each detailed hit whose range opens at
a declaration starts at the comment block right above it instead. Lines only. A docs
question is answered by code whose docs are its doc comment too: QA on console-rs/indicatif,
`where is ProgressBar::println documented` pointed at `pub fn println`, below its eleven
`///` lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from processors.tokenizer import tokenize
from query_api.retrieval.hit_details import DETAILED_HITS, HitLocator
from schemas import tools as t

# the words naming a declaration's documentation comment
_COMMENT_WORDS = frozenset(
    {"comment", "comments", "jsdoc", "tsdoc", "javadoc", "godoc", "rustdoc", "docblock",
     "docstring", "docstrings", "doc", "docs", "documented", "documentation"}
)  # fmt: skip
_COMMENT_LINE = re.compile(r"^\s*(?:/\*\*?|\*|//|#(?!\[|!))")  # not a Rust attribute `#[...]`
MAX_COMMENT_LINES = 40  # lines a doc comment above a declaration may take


def asks_comment(query: str) -> bool:
    """Whether the request names a doc comment (`comment`, `JSDoc`, `docstring`, ...)."""
    return not _COMMENT_WORDS.isdisjoint(tokenize(query))


def at_doc_comments(
    locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]
) -> list[t.SearchHit]:
    """`hits` with each detailed file hit whose range opens at a declaration's first line
    opened at the comment block right above it, when the request names a comment."""
    if not asks_comment(query):
        return hits
    out = []
    for rank, hit in enumerate(hits):
        path = hit.entry.path
        start = hit.startLine
        if rank < DETAILED_HITS and hit.entry.kind == "File" and path and start and start > 1:
            starts = {s.start_line for s in locator.symbols_of(repo_id, path)}
            if start in starts:
                lines = (locator.body(repo_id, path) or "").split("\n")
                top = comment_above(lines, start)
                if top < start:
                    hit = hit.model_copy(update={"startLine": top})
        out.append(hit)
    return out


def comment_above(lines: Sequence[str], start: int) -> int:
    """The first line of the comment block ending right above line `start` (1-based), else
    `start`; a decorator or attribute line between them is stepped over. A declaration past
    the stored text (`lines`, its first 64 Ki characters) has no comment read: `start`."""
    if start > len(lines):
        return start
    n = start - 1
    while n >= 1 and lines[n - 1].lstrip().startswith(("@", "#[")):
        n -= 1  # `@Injectable()`, `#[derive(...)]` above the declaration, below its comment
    first = start
    while n >= 1 and start - n <= MAX_COMMENT_LINES and _COMMENT_LINE.match(lines[n - 1]):
        first, n = n, n - 1
    return first
