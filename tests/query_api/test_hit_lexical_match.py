"""matches_lexically and locate_in_file read only the lines that can match (hit_details.py);
they must answer exactly as the definitions they shortcut: any query word among the tokens of
the whole text, and line starts as the newlines place them."""

from __future__ import annotations

import random
import re
from pathlib import Path

from processors.tokenizer import tokenize
from query_api.retrieval.hit_details import (
    _candidate_lines,
    first_worded_lines,
    locate_in_file,
    matches_lexically,
    query_terms,
)

SOURCES = sorted((Path(__file__).resolve().parents[2] / "query_api").rglob("*.py"))
WORDS = ["parse", "token", "get", "conn", "read", "answer", "zebra", "str", "line", "i", "x1"]


def by_definition(path: str, body: str, query: str) -> bool:
    terms = query_terms(query)
    if terms.empty:
        return True
    text = f"{path}\n{body}"
    if any(ident in text.lower() for ident in terms.identifiers):
        return True
    return bool(terms.words) and not terms.words.isdisjoint(tokenize(text))


def test_matches_lexically_agrees_with_tokenizing_the_whole_text() -> None:
    rng = random.Random(7)
    bodies = [p.read_text(encoding="utf-8") for p in SOURCES[:60]]
    bodies += ["", "\n", "getValue\nXMLParser", "naïve İstanbul parse\nzebraQuokka", "a\n\nparse"]
    checked = 0
    for body in bodies:
        for _ in range(6):
            query = " ".join(rng.sample(WORDS, rng.randint(1, 4)))
            assert matches_lexically("pkg/mod.py", body, query_terms(query)) == by_definition(
                "pkg/mod.py", body, query
            ), (query, body[:80])
            checked += 1
    assert checked == len(bodies) * 6


def test_a_word_inside_a_longer_token_is_not_a_match() -> None:
    assert not matches_lexically("a.py", "strings = parser_x\n", query_terms("str parse"))
    assert matches_lexically("a.py", "strings\nx = str(y)\n", query_terms("str"))
    assert matches_lexically("lib/zebra.py", "", query_terms("zebra"))  # the path is text too


def test_candidate_lines_are_counted_from_the_newlines() -> None:
    body = "alpha\n\nparse here\nno\nparse parse\n"
    lines = body.split("\n")
    terms = query_terms("parse")
    expected_starts = [0] + [m.end() for m in re.finditer("\n", body)]
    assert len(expected_starts) == len(lines)
    assert _candidate_lines(body, lines, terms, 1, len(lines))[0] == {3: 1, 5: 1}
    assert _candidate_lines(body, lines, terms, 4, 5)[0] == {5: 1}


def candidates_by_definition(
    lines: list[str], query: str, first: int, last: int
) -> list[tuple[int, int]]:
    """Each line in first..last holding a term, its bound (an identifier 2, a word 1, an
    identifier's words all on a line not holding it 1), in the order the terms then the lines
    are met: the order _exact reads them in."""
    terms = query_terms(query)
    out: dict[int, int] = {}
    for needle in [*terms.identifiers, *sorted(terms.words)]:
        weight = 2 if needle in terms.identifiers else 1
        for n in range(first, last + 1):
            if needle in lines[n - 1].lower():
                out[n] = out.get(n, 0) + weight
    for ident, words in zip(terms.identifiers, terms.split_identifiers, strict=True):
        for n in range(first, last + 1):
            line = lines[n - 1].lower()
            if ident not in line and all(w in line for w in words):
                out[n] = out.get(n, 0) + 1
    return list(out.items())


def test_candidate_lines_agree_with_reading_each_line() -> None:
    rng = random.Random(11)
    bodies = [p.read_text(encoding="utf-8") for p in SOURCES[:40]]
    bodies += ["", "\n", "parse", "parse\n", "\n\nparse\n\n", "get_value parse\nget_value"]
    checked = 0
    for body in bodies:
        lines = body.split("\n")
        for _ in range(8):
            query = " ".join(rng.sample([*WORDS, "get_value", "readLine"], rng.randint(1, 4)))
            first = rng.randint(1, len(lines))
            last = rng.randint(first, len(lines))
            for lo, hi in ((1, len(lines)), (first, last)):
                got = list(_candidate_lines(body, lines, query_terms(query), lo, hi)[0].items())
                assert got == candidates_by_definition(lines, query, lo, hi), (query, lo, hi)
                checked += 1
    assert checked == len(bodies) * 16


def test_of_lines_matching_as_many_words_the_one_with_the_files_rarer_word_is_the_hits() -> None:
    """QA on go-resty/resty: `gzip response decompression` pointed at the first line holding
    `response` (a word on many of response handling's lines), not at the one `gzip` line,
    each holding one query word."""
    body = "\n".join(
        [
            "type ResponseMiddleware func(c *Client, r *Response) error",
            "func parseResponseBody(c *Client, res *Response) error {",
            "    // the response is read whole",
            '    if res.Header().Get("Content-Encoding") == "gzip" {',
            "        return readResponse(res)",
            "    }",
            "    return nil",
            "}",
        ]
    )
    found = locate_in_file(body, [], query_terms("gzip response decompression"))
    assert found is not None and found.start_line <= 4 <= found.end_line, found
    assert "\n4: " in f"\n{found.snippet}", found


def test_a_snippet_of_a_passage_shows_its_lines_with_words_first() -> None:
    """QA on unjs/ofetch: a hit found by meaning showed `75: });  76: }  77: }`."""
    lines = ["    });", "  }", "}", "", "export function retry(ctx) {", "  return ctx.retry;"]
    assert first_worded_lines(lines, 1, 6) == [5, 6]
    assert first_worded_lines(["});", "}", ""], 1, 3) == [1, 2]
