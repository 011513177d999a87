"""A context task naming a place in a file (`src/fetch.ts:219`, as a search's text answer,
an editor or a stack trace writes it) is sent those lines of that file, in the declaration
holding them (query_api/context/spans.py spans_at_place). QA on unjs/ofetch: the task's
words chose the spans of src/fetch.ts, and line 219 was not among them."""

from __future__ import annotations

from pathlib import Path

from processors.tokens import count_tokens
from query_api.context.candidates import Candidate
from query_api.context.count_memo import CountMemo
from query_api.context.entries import EntryRenderer
from query_api.context.spans import HEAD_LINES, SPAN_CONTEXT, Focus, spans_at_place, task_stems
from query_api.retrieval.named_lines import Place, written_places
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from streams.stores.views.symbols import SymbolRow
from tests.streams.symbol_records import records


def sym(fq: str, kind: str, start: int, end: int) -> SymbolRow:
    name = fq.rpartition(".")[2]
    return SymbolRow("r", "f.ts", fq, name, kind, start, end, "xx", name)


def test_the_places_a_task_writes() -> None:
    assert written_places("src/fetch.ts:219") == [Place("src/fetch.ts", 219, 219)]
    assert written_places("why does `src/fetch.ts:219` throw? see utils.ts#L3-L9.") == [
        Place("src/fetch.ts", 219, 219),
        Place("utils.ts", 3, 9),
    ]
    assert written_places("explain (lib/a.js:12-20), then lib/a.js:12-20") == [
        Place("lib/a.js", 12, 20)
    ]
    assert written_places("is it lib/a.js:7?") == [Place("lib/a.js", 7, 7)]
    assert written_places("fix the retry in src/fetch.ts") == []  # a path, no lines
    assert written_places("at 12:30 on v1.2") == []
    many = " ".join(f"a{n}.ts:{n}" for n in range(1, 20))
    assert len(written_places(many)) == 4


def test_the_function_holding_the_place_is_sent_whole() -> None:
    lines = [f"line {n}" for n in range(1, 501)]
    symbols = [
        sym("Client", "Type", 100, 400),  # too long for the share
        sym("Client.parse", "Method", 200, 240),
        sym("Client.parse.inner", "Other", 215, 222),
    ]
    [(a, z, fq)] = spans_at_place(symbols, lines, Place("f.ts", 219, 219), max_lines=100) or []
    assert fq == "Client.parse" and a <= 200 - SPAN_CONTEXT and z >= 240
    # grown to the fill as other spans are, and still holding the method
    [(a, z, fq)] = spans_at_place(symbols, lines, Place("f.ts", 219, 219), 100, 80) or []
    assert fq == "Client.parse" and z - a + 1 == 80 and a <= 200 and z >= 240


def test_a_place_in_a_declaration_too_long_is_sent_as_a_window_of_it() -> None:
    lines = [f"line {n}" for n in range(1, 1001)]
    symbols = [sym("handle", "Function", 10, 900)]
    [(a, z, fq)] = spans_at_place(symbols, lines, Place("f.ts", 500, 505), max_lines=60) or []
    assert fq == "handle" and a < 500 and z >= 505 and z - a + 1 == HEAD_LINES
    # a range longer than the share: its head
    [(a, z, _)] = spans_at_place(symbols, lines, Place("f.ts", 300, 700), max_lines=60) or []
    assert (a, z) == (300, 359)
    # near the file's end: the window ends there and still holds the place
    [(a, z, _)] = spans_at_place([], lines, Place("f.ts", 999, 1000), max_lines=60) or []
    assert z == 1000 and a <= 999
    assert spans_at_place(symbols, lines, Place("f.ts", 1001, 1001)) is None


def _fetch_body() -> str:
    helpers = [
        f"export function fetchHelper{n}(fetch) {{\n  return fetch({n});\n}}\n" for n in range(8)
    ]
    parse = "\n".join(
        [
            "export function createClient(options) {",
            *[f"  const step{n} = options.value + {n};" for n in range(60)],
            "  const parseFunction = options.parseResponse || JSON.parse;",
            "  return parseFunction;",
            "}",
        ]
    )
    return "\n".join(helpers) + "\n" + parse + "\n"


def test_a_bundle_entry_for_a_named_place_holds_those_lines(tmp_path: Path) -> None:
    body = _fetch_body()
    lines = body.split("\n")
    target = next(n for n, line in enumerate(lines, 1) if "parseFunction =" in line)
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records("src/fetch.ts", body), {})
        row = views.get_content("r", "src/fetch.ts")
        assert row is not None
        renderer = EntryRenderer(views, CountMemo(count_tokens))
        cand = Candidate("src/fetch.ts", 1.0, ["path-name-match"], [], None)
        for task in (f"src/fetch.ts:{target}", f"why does src/fetch.ts:{target} throw"):
            focus = Focus(task_stems(task), places=tuple(written_places(task)))
            sent, units, ranges, whole = renderer.slices(
                "r", cand, row, count_tokens(body), focus, cap=400
            )
            assert not whole and ranges, task
            assert any(a <= target <= z for a, z in ranges), (task, ranges)
            assert "parseFunction = options.parseResponse" in "\n".join(sent)
            assert [symbol for _, symbol in units] == ["createClient"], units
        # without the place, the words choose (`fetch` names the helpers): what it fixes
        words = Focus(task_stems(f"src/fetch.ts:{target}"))
        _, _, ranges, _ = renderer.slices("r", cand, row, count_tokens(body), words, cap=400)
        assert not any(a <= target <= z for a, z in ranges)
