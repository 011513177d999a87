"""Query plans: root-anchored patterns run in a pass limited to the root, and splitting the
query file that way changes nothing that is extracted (checked on every golden fixture)."""

from __future__ import annotations

from pathlib import Path

import pytest

import processors.symbols.extract as extract_module
from processors.language import language_for_path
from processors.symbols.extract import extract
from processors.symbols.grammars import (
    GRAMMARS,
    Grammar,
    QueryPlan,
    _compile_pass,
    _pattern_texts,
    grammar_for,
    plan_of,
    query_of,
    query_source,
)

FIXTURES = Path(__file__).parent / "fixtures" / "symbols"
SOURCES = sorted(FIXTURES.glob("*.fixture"))


def one_pass(grammar: Grammar) -> QueryPlan:
    """The whole query file as one walk, as before the split."""
    whole = query_of(grammar)
    texts = _pattern_texts(whole, query_source(grammar).encode("utf-8"))
    return QueryPlan((_compile_pass(grammar, texts, list(range(len(texts))), None, whole),))


def test_root_anchored_patterns_get_a_root_limited_pass() -> None:
    for key in ("javascript", "typescript", "tsx", "go", "rust", "python"):
        passes = plan_of(GRAMMARS[key]).passes
        assert [p.max_start_depth for p in passes] == [None, 0], key
        assert sorted(passes[0].rank + passes[1].rank) == list(
            range(query_of(GRAMMARS[key]).pattern_count)
        )
    # Ruby's `(module ...)` is a declaration, not the root; C's file-level declarations are
    # found at any depth (`#ifdef`, `extern "C"`) and kept by languages/c_family
    for key in ("java", "ruby", "c"):
        assert [p.max_start_depth for p in plan_of(GRAMMARS[key]).passes] == [None], key


@pytest.mark.parametrize("source", SOURCES, ids=[p.name for p in SOURCES])
def test_the_split_plan_extracts_what_one_pass_does(
    source: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = source.name.removesuffix(".fixture")
    language = language_for_path(path)
    grammar = grammar_for(language, path)
    assert grammar is not None
    body = source.read_text(encoding="utf-8")
    split = extract(body, language, path, grammar)
    monkeypatch.setattr(extract_module, "plan_of", one_pass)
    single = extract(body, language, path, grammar)
    assert (split.symbols, split.imports, split.references) == (
        single.symbols,
        single.imports,
        single.references,
    )
