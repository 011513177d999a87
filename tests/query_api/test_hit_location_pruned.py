"""locate_in_file scores (tokenizes) only the lines that can still make the answer: a line's
bound from _candidate_lines is never below its score, so a line whose bound cannot beat the
lines already found is left unscored. The answer must be the one scoring every candidate
gives (`exhaustively`, the definition), and far fewer lines are scored."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from query_api.retrieval import hit_details
from query_api.retrieval.hit_details import (
    CANDIDATE_LINES,
    CONTEXT_LINES,
    MAX_RANGE_LINES,
    NEAR_LINES,
    SNIPPET_LINES,
    WINDOW_LINES,
    Location,
    QueryTerms,
    _candidate_lines,
    _innermost,
    _snippet,
    first_worded_lines,
    line_score,
    locate_in_file,
    query_terms,
)
from query_api.retrieval.line_preference import import_lines, long_string_lines
from streams.stores.views.symbols import SymbolRow

SOURCES = sorted((Path(__file__).resolve().parents[2] / "query_api").rglob("*.py"))
WORDS = ["parse", "token", "get", "conn", "read", "answer", "line", "path", "repo", "hit", "x1"]
WORDS += ["self", "return", "terms", "query", "get_value", "readLine", "QueryTerms", "def"]


def exhaustively(
    body: str,
    symbols: Sequence[SymbolRow],
    terms: QueryTerms,
    within: SymbolRow | None,
    named: Sequence[SymbolRow] = (),
) -> Location | None:
    """locate_in_file scoring every one of the first CANDIDATE_LINES candidates."""
    lines = body.split("\n")
    first, last = (within.start_line, within.end_line) if within else (1, len(lines))
    last = min(last, len(lines))
    bounds, rarity = _candidate_lines(body, lines, terms, first, last)

    def scored(numbers: Sequence[int]) -> list[tuple[int, float, int]]:
        out = [
            (-line_score(lines[n - 1], terms), -rarity.get(n, 0.0), n)
            for n in numbers[:CANDIDATE_LINES]
        ]
        return [(score, rare, n) for score, rare, n in out if score]

    starts = {s.start_line for s in symbols}

    def outside(n: int) -> bool:
        return not any(s.start_line <= n <= s.end_line for s in symbols)

    # the lines of import statements, one written over several lines whole (an imported name
    # on a line of its own is no code a snippet should show beside the best line)
    imports = import_lines(lines)

    def importing(n: int) -> bool:  # an import statement outside any declaration
        return outside(n) and n in imports

    docstring = long_string_lines(tuple(lines))  # after the code's (no query asks prose)

    def rank(n: int) -> int:
        inside = [i for i, s in enumerate(named) if s.start_line <= n <= s.end_line]
        return min(inside, default=len(named))

    # of equal bounds, the lines the answer would prefer are scored first
    ranked = scored(
        sorted(
            bounds,
            key=lambda n: (
                -bounds[n],
                rank(n),
                -rarity.get(n, 0.0),
                outside(n),
                importing(n),
                n in docstring,
                n not in starts,
                n,
            ),
        )
    )
    if not ranked:
        if within is None:
            return None
        head = first_worded_lines(lines, first, last)
        end = min(last, max(head[-1], first + MAX_RANGE_LINES - 1)) if head else last
        return Location(first, end, _snippet(lines, head)) if head else None
    best = min(
        ranked,
        key=lambda it: (
            it[0],
            rank(it[2]),
            outside(it[2]),
            importing(it[2]),
            it[2] in docstring,
            it[1],
            it[2] not in starts,
            it[2],
        ),
    )[2]
    owner = within or _innermost(symbols, best)
    if owner is not None:
        lo, hi = owner.start_line, min(owner.end_line, len(lines))
        long = hi - lo + 1 > MAX_RANGE_LINES
        window = range(best - WINDOW_LINES, best + WINDOW_LINES + 1) if long else range(lo, hi + 1)
        inside = sorted(scored([n for n in bounds if lo <= n <= hi and n in window]))
        numbers = sorted(n for *_, n in inside[:SNIPPET_LINES]) or [best]
        if long:
            lo, hi = max(lo, numbers[0] - CONTEXT_LINES), min(hi, numbers[-1] + CONTEXT_LINES)
        return Location(lo, hi, _snippet(lines, numbers))
    code = best not in imports  # then no import joins the snippet
    near = [
        n
        for *_, n in sorted(ranked)
        if abs(n - best) <= NEAR_LINES and (n == best or not code or n not in imports)
    ]
    numbers = sorted(near[:SNIPPET_LINES])
    return Location(numbers[0], numbers[-1], _snippet(lines, numbers))


def declarations(body: str, rng: random.Random) -> list[SymbolRow]:
    """Each `def`/`class` line starts a declaration of a random length (nested ones too)."""
    lines = body.split("\n")
    out = []
    for n, line in enumerate(lines, 1):
        if line.lstrip().startswith(("def ", "class ", "async def ")):
            end = min(
                len(lines) + rng.choice([0, 3]),
                n + rng.choice([rng.randint(0, 60), rng.randint(60, 400)]),
            )
            out.append(SymbolRow("r", "m.py", f"m.s{n}", f"s{n}", "Function", n, end, "d", ""))
    return out


def test_the_answer_is_the_one_scoring_every_line_gives() -> None:
    rng = random.Random(5)
    bodies = [p.read_text(encoding="utf-8") for p in SOURCES[:80]]
    bodies += ["", "\n", "parse", "def parse():\n    parse parse\n", "get_value\nget_value parse"]
    checked = 0
    for body in bodies:
        symbols = declarations(body, rng)
        for _ in range(6):
            terms = query_terms(" ".join(rng.sample(WORDS, rng.randint(1, 6))))
            named = rng.sample(symbols, min(rng.randint(0, 3), len(symbols)))
            for within in [None, *rng.sample(symbols, min(2, len(symbols)))]:
                got = locate_in_file(body, symbols, terms, within, named)
                want = exhaustively(body, symbols, terms, within, named)
                assert got == want, (terms, within, named)
                checked += 1
    assert checked > len(bodies) * 6


def test_lines_that_cannot_beat_the_best_are_not_scored(monkeypatch: pytest.MonkeyPatch) -> None:
    """One line holds every word of the query, 200 lines one word each: the best line and
    the snippet's are found with a few lines scored, not CANDIDATE_LINES of them."""
    body = "\n".join(["parse the token and read it", *[f"x = parse({i})" for i in range(200)]])
    scored: list[str] = []

    def counted(line: str, terms: QueryTerms) -> int:
        scored.append(line)
        return line_score(line, terms)

    monkeypatch.setattr(hit_details, "line_score", counted)
    found = locate_in_file(body, [], query_terms("parse token read"))
    assert found == Location(
        1, 3, "1: parse the token and read it\n2: x = parse(0)\n3: x = parse(1)"
    )
    assert len(scored) <= 2 * SNIPPET_LINES, len(scored)


def test_a_line_scores_at_most_its_bound_with_plural_and_singular_words() -> None:
    """A word counts on a line holding its plural or singular (word_forms), so the bound
    finds lines by what both forms hold (`entr` for `entries`, `entry`)."""
    for query in ["answers entries conn", "entry line", "classes repos x1", "query_terms lines"]:
        terms = query_terms(query)
        for path in SOURCES[:40]:
            body = path.read_text(encoding="utf-8")
            lines = body.split("\n")
            bounds, _ = _candidate_lines(body, lines, terms, 1, len(lines))
            for n, line in enumerate(lines, 1):
                assert line_score(line, terms) <= bounds.get(n, 0), (query, path, n)
