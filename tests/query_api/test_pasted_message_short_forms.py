"""Pasted messages read in the forms QA found no file for: a message of two words alone
(`Error: Pinia destroyed`, or in quotes: QA on vuejs/pinia, `throw new Error('Pinia
destroyed')`), one opening with a value in backticks (QA on mitsuhiko/insta, `` `.snap`
supplied as an extension. ...``), and one of three or more segments apart by placeholders,
which FTS5's NEAR measured from the first phrase's end to the last one's start."""

from __future__ import annotations

import pytest

from query_api.retrieval.pasted_message import files_writing_message, message_queries

TEXTS = {
    "src/store.ts": "if (destroyed) throw new Error('Pinia destroyed')",
    "src/plugin.ts": "this.$pinia = parent.$pinia }, destroyed() {",
    "cli/src/cli.rs": (
        'eprintln!("`{x}` supplied as an extension. This will use `foo.{x}` as file names; '
        'likely you want `{no_period}` instead.")'
    ),
    "insta/src/snapshot.rs": "// the extension supplied as `.snap` will use file names",
}


def _tokens(text: str) -> list[str]:
    return "".join(c if c.isalnum() else " " for c in text.lower()).split()


def _near(tokens: list[str], phrases: list[list[str]], most: int) -> bool:
    """Whether `tokens` hold `phrases` in order with at most `most` tokens from the first's
    end to the last's start (FTS5 NEAR, in order only)."""
    starts = [[i for i in range(len(tokens)) if tokens[i : i + len(p)] == p] for p in phrases]
    for first in starts[0]:
        at, ok, last_start = first + len(phrases[0]), True, first + len(phrases[0])
        for p, found in zip(phrases[1:], starts[1:], strict=True):
            later = [i for i in found if i >= at]
            if not later:
                ok = False
                break
            last_start, at = later[0], later[0] + len(p)
        if ok and last_start - (first + len(phrases[0])) <= most:
            return True
    return False


def _paths_matching(match: str, limit: int) -> list[str]:
    body = match.partition(" : ")[2]
    if body.startswith("NEAR("):
        inner, _, most = body.removeprefix("NEAR(").rstrip(")").rpartition(",")
        phrases = [p.split() for p in inner.split('"') if p.strip()]
        hits = [p for p, t in TEXTS.items() if _near(_tokens(t), phrases, int(most))]
    else:
        words = body.strip('"').split()
        hits = [p for p, t in TEXTS.items() if _near(_tokens(t), [words], 0)]
    return hits[:limit]


@pytest.mark.parametrize(
    "query", ["Error: Pinia destroyed", "`Pinia destroyed`", '"Pinia destroyed"']
)
def test_a_two_word_message_alone_is_read(query: str) -> None:
    assert message_queries(query) == ['body_terms : "pinia destroyed"'], query
    assert "src/store.ts" in files_writing_message(query, _paths_matching)


def test_a_message_opening_with_a_ticked_value_is_read() -> None:
    query = (
        "`.snap` supplied as an extension. This will use `foo..snap` as file names; "
        "likely you want `snap` instead."
    )
    assert files_writing_message(query, _paths_matching) == {"cli/src/cli.rs"}


@pytest.mark.parametrize(
    "query",
    [
        "`storeToRefs` loses reactivity after HMR.",  # a code name opens it: a request
        '"Allow writable getters"',  # a request's title in quotes
        "`dark mode`",  # no sentence
        "Fix Pinia destroyed error",
        "fix: Pinia destroyed",
    ],
)
def test_requests_stay_requests(query: str) -> None:
    assert message_queries(query) == [], query
