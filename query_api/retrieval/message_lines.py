"""A file writing the error message a query pastes points at the line writing it.

A hit's lines are those holding the most of the query's words, and of lines scoring alike one
in a declaration the hit's reasons name wins. A message's words are mostly short and common
(`should`, `not`, `be`) and a file's declarations are often named after it: QA on
typestack/class-validator, `BadRequestException: password should not be empty` ranked
IsNotEmpty.ts first, pointed at `export const IS_NOT_EMPTY = 'isNotEmpty';` (line 4) and not
at `'$property should not be empty'` (line 22). So each detailed file hit holding one of the
phrases the message is searched by (pasted_message.message_phrases, longest first) on a line
points at that line: the range is the innermost declaration around it (a window of it when
longer than MAX_RANGE_LINES), the snippet the line. A file a traceback frame names keeps the
frame's lines (named_lines).

A Go error opens with its package's name, not a marker (`websocket: request origin not
allowed by Upgrader.CheckOrigin`), and so does a change request's scope (`hlog: add
HostHandler`): such a query ranks as it did, and its phrases point a hit only at a line
writing them in a string literal. QA on gorilla/websocket: that message's server.go pointed
at the `CheckOrigin` field (line 67), not at the line returning the message (153).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from processors.query_scope import NOT_SCOPES
from processors.tokenizer import tokenize
from query_api.retrieval.definition_sites import defined_name
from query_api.retrieval.hit_details import (
    CONTEXT_LINES,
    DETAILED_HITS,
    LINE_CHARS,
    MAX_RANGE_LINES,
    HitLocator,
)
from query_api.retrieval.named_lines import place_of, written_places
from query_api.retrieval.pasted_message import SHORT_RUN, message_phrases, text_segments
from schemas import tools as t


def at_message_lines(
    locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]
) -> list[t.SearchHit]:
    """`hits` with each of the first DETAILED_HITS file hits holding a phrase of the message
    the query pastes (of SHORT_RUN words or more) on one line pointed at the first such line,
    the longest phrase's."""
    if defined_name(query) is not None:  # `no method named `m` found for struct `T``: at T
        return hits
    found = message_phrases(query)
    literal = not found  # a Go error's phrases: on a line writing them in a string literal
    found = found or prefixed_phrases(query)
    # the longest first: `is not a directory` says more than `base directory`
    phrases = sorted((p for p in found if len(p) >= SHORT_RUN), key=lambda p: -len(p))
    # two words a value was formatted after (`Unknown option '${key}'`), on a string literal's
    # line only, when no longer phrase is on any (pasted_message._short_message)
    pairs = [p for p in found if len(p) == 2]
    if not phrases and not pairs:
        return hits
    places = written_places(query)  # a traceback's frames: at_named_lines places those files
    out: list[t.SearchHit] = []
    for rank, hit in enumerate(hits):
        path = hit.entry.path
        if rank >= DETAILED_HITS or hit.entry.kind != "File" or not path:
            out.append(hit)
            continue
        if places and place_of(places, path) is not None:
            out.append(hit)
            continue
        lines = (locator.body(repo_id, path) or "").split("\n")
        line = _message_line(lines, phrases, literal, found)
        line = _message_line(lines, pairs, True, found) if line is None else line
        out.append(hit if line is None else _at_line(hit, lines, line, locator, repo_id))
    return out


# a Go error as its package writes it, after a log line's date and time and the operations
# wrapping it: `2024/01/02 15:04:05 read: websocket: close 1001 (going away)`
_PREFIXED = re.compile(r"^\s*(?:\d[\d/:.-]*\s+)*(?:[a-z][\w.-]*:\s+)+(?=\S)")
_PREFIX = re.compile(r"([a-z][\w.-]*):\s")
_LITERAL = re.compile(r"[\"`']")  # a line writing a string literal


def prefixed_phrases(query: str) -> list[tuple[str, ...]]:
    """The phrases of a one-line query opening with lower-case prefixes and colons (a Go
    error's `websocket: `): its text's unquoted segments after them, as a pasted message's.
    None for a change request's conventional-commit type (`fix: pass options to X`) nor
    for one writing code in backticks: `@IsDateString` is a name, and its words on
    `IS_DATE_STRING = 'isDateString'` no message (tests/query_api/
    test_hit_spelled_declarations.py)."""
    found = _PREFIXED.match(query)
    if found is None or "\n" in query.strip() or "`" in query:
        return []
    if _PREFIX.findall(found.group())[0] in NOT_SCOPES:  # `fix:`, `docs:`
        return []
    return [words for words, quoted in text_segments(query[found.end() :]) if not quoted]


def _message_line(
    lines: Sequence[str],
    phrases: Sequence[tuple[str, ...]],
    literal: bool = False,
    segments: Sequence[tuple[str, ...]] = (),
) -> int | None:
    """The number of the line holding the first of `phrases` any line holds (with `literal`,
    any line writing a string literal), moved up to the first of the lines above it that go on
    writing the message (_message_opening). Of several lines holding it, the first holding the
    most of the message's `segments`: six hooks write `X() may be used only in the context of
    a <Router> component.`, and the pasted one's name, a segment of its own, says which."""
    tokens = [tokenize(line) if not literal or _LITERAL.search(line) else [] for line in lines]
    for phrase in phrases:
        holding = [n for n, words in enumerate(tokens, start=1) if _holds(words, phrase)]
        if holding:
            n = max(holding, key=lambda n: sum(_holds(tokens[n - 1], s) for s in segments))
            return _message_opening(lines, tokens, n, phrases)
    return None


def _holds(words: Sequence[str], phrase: tuple[str, ...]) -> bool:
    size = len(phrase)
    return any(tuple(words[i : i + size]) == phrase for i in range(len(words) - size + 1))


def _message_opening(
    lines: Sequence[str],
    tokens: Sequence[Sequence[str]],
    n: int,
    phrases: Sequence[tuple[str, ...]],
) -> int:
    """Line `n`, or the first of the string literals right above it each holding SHORT_RUN
    words of a phrase in a row: a message written over several literals (`f"Accessing
    jsonschema.{name} is deprecated and will be "` / `"removed in a future release. ..."` /
    `"attribute on the corresponding Validator."`) starts there. QA on
    python-jsonschema/jsonschema pointed __init__.py at the last of those three lines, the
    one holding a whole phrase, not at the first."""
    runs = {
        tuple(phrase[i : i + SHORT_RUN])
        for phrase in phrases
        for i in range(len(phrase) - SHORT_RUN + 1)
    }
    while n > 1 and _LITERAL.search(lines[n - 2]):
        words = tokens[n - 2] or tokenize(lines[n - 2])
        spans = (tuple(words[i : i + SHORT_RUN]) for i in range(len(words) - SHORT_RUN + 1))
        if runs.isdisjoint(spans):
            break
        n -= 1
    return n


def _at_line(
    hit: t.SearchHit, lines: Sequence[str], n: int, locator: HitLocator, repo_id: str
) -> t.SearchHit:
    symbols = locator.symbols_of(repo_id, hit.entry.path or "")
    around = [s for s in symbols if s.start_line <= n <= s.end_line]
    owner = min(around, key=lambda s: s.end_line - s.start_line) if around else None
    lo, hi = (owner.start_line, min(owner.end_line, len(lines))) if owner else (n, n)
    if hi - lo + 1 > MAX_RANGE_LINES:
        lo, hi = max(lo, n - CONTEXT_LINES), min(hi, n + CONTEXT_LINES)
    text = lines[n - 1].strip()
    text = text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"
    return hit.model_copy(update={"startLine": lo, "endLine": hi, "snippet": f"{n}: {text}"})
