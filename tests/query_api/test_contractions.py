"""A request's contractions are not its words (query_api/retrieval/contractions.py): the
fragments `don't` splits into (`don`, `t`) matched jinja's `t.Any` annotations and a
docstring's "Don't", so a hit's lines and a bundle's spans went to the wrong declaration."""

from __future__ import annotations

from query_api.context.spans import select_spans, task_stems
from query_api.retrieval.contractions import without_contractions
from query_api.retrieval.hit_details import locate_in_file, query_terms
from streams.stores.views.symbols import SymbolRow

# the shape of jinja's filters.py around the commit "don't apply `urlize` to `@a@b`"
PAD = ["", "# ..."] * 15  # 30 lines between declarations, so their spans stay apart
FILTERS = [
    "import typing as t",  # 1
    "",
    "def do_indent(s: str, first: bool = False) -> str:",  # 3
    '    """Indent the text.',
    "",
    "    :param first: Don't skip indenting the first line.",  # 6: `don` and `t`
    '    """',
    "    return s",  # 8
    *PAD,
    "def do_reverse(value: t.Iterable[t.Any]) -> t.Iterable[t.Any]:",  # 39: `t`
    "    return reversed(value)",
    *PAD,
    "def do_urlize(value: str) -> str:",  # 71: `urlize`
    "    return urlize(value)",
]


def _sym(name: str, start: int, end: int) -> SymbolRow:
    return SymbolRow("r", "filters.py", f"filters.{name}", name, "Function", start, end, "d", "")


SYMBOLS = [_sym("do_indent", 3, 8), _sym("do_reverse", 39, 40), _sym("do_urlize", 71, 72)]
TASK = "don't apply `urlize` to `@a@b`"


def test_a_hits_lines_are_where_its_words_are_not_a_contractions_fragments() -> None:
    found = locate_in_file("\n".join(FILTERS), SYMBOLS, query_terms(TASK))
    assert found is not None
    assert (found.start_line, found.end_line) == (71, 72)
    assert found.snippet.splitlines()[0] == "71: def do_urlize(value: str) -> str:"


def test_a_bundle_span_is_the_declaration_the_task_names() -> None:
    """Its one declaration: the `t.Iterable` overloads were sent as a second span."""
    spans = select_spans(SYMBOLS, len(FILTERS), task_stems(TASK), lines=FILTERS)
    assert [fq for _, _, fq in spans] == ["filters.do_urlize"]


def test_task_words_leave_negations_out_and_keep_a_clitics_word() -> None:
    assert task_stems("don't apply urlize") == task_stems("apply urlize")
    assert task_stems("the Environment's loader won't reload") == task_stems(
        "the Environment loader reload"
    )
    assert query_terms("it’s the loader's cache").words == frozenset({"loader", "cache"})


def test_quotes_around_code_are_no_contraction() -> None:
    for text in ("split on 't' then", "foo['bar']", "b'data'", "f'{name}'"):
        assert without_contractions(text) == text
