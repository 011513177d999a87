"""A search naming a place in a file (`src/fetch.ts:219`, as the search's text answer and
editors write it) points that file's hit at those lines (query_api/retrieval/named_lines.py).
QA on unjs/ofetch: `src/fetch.ts:219` and `src/fetch.ts:216-222` pointed at line 3, an
import holding the word `fetch`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.hit_details import HitLocator, enrich
from query_api.retrieval.named_lines import Place, at_named_lines, named_place
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

PATH = "src/fetch.ts"
BODY = "\n".join(
    [
        'import { createFetchError } from "./error.ts";',  # 1: holds `fetch`
        "",
        "export function createFetch() {",  # 3
        *[f"  const step{n} = {n};" for n in range(4, 10)],  # 4-9
        "",  # 10
        "  const parseFunction = context.options.parseResponse || JSON.parse;",  # 11
        "  return parseFunction;",  # 12
        "}",  # 13
        "",
    ]
)


def _hit(tmp_path: Path, query: str, path: str = PATH) -> t.SearchHit:
    return _answer(tmp_path, query, path)[0]


def _answer(tmp_path: Path, query: str, path: str = PATH) -> tuple[t.SearchHit, str | None]:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records(PATH, BODY), {})
        views.apply(records("src/other.ts", BODY), {})
        entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
        hit = t.SearchHit(score=1.0, entry=entry, reasons=["path-name-match", "content-match"])
        locator = HitLocator(views)
        hits = enrich(locator, "r", query, [hit], details=True).hits
        [shown], note = at_named_lines(locator, "r", query, hits)
        return shown, note


def test_a_path_with_a_line_points_the_files_hit_at_that_line(tmp_path: Path) -> None:
    for query in ("src/fetch.ts:11", "fetch.ts:11", "src/fetch.ts:11:5", "src/fetch.ts#L11"):
        hit = _hit(tmp_path, query)
        assert (hit.startLine, hit.endLine) == (11, 11), query
        assert hit.snippet == (
            "11: const parseFunction = context.options.parseResponse || JSON.parse;"
        )


def test_a_path_with_a_range_points_at_the_range(tmp_path: Path) -> None:
    for query in ("src/fetch.ts:10-13", "src/fetch.ts#L10-L13", "src/fetch.ts:13-10"):
        hit = _hit(tmp_path, query)
        assert (hit.startLine, hit.endLine) == (10, 13), query
        assert hit.snippet is not None and hit.snippet.startswith("11: const parseFunction")
        assert len(hit.snippet.splitlines()) == 2  # its code lines, not its closing brace


def test_other_files_keep_the_lines_their_words_found(tmp_path: Path) -> None:
    assert _hit(tmp_path, "src/fetch.ts:11", path="src/other.ts").startLine != 11


def test_a_line_past_the_end_points_at_the_last_line_and_the_answer_says_so(
    tmp_path: Path,
) -> None:
    """QA on spf13/pflag: `flag.go:99999` pointed at the lines holding `flag`, and nothing
    said the file has no such line."""
    hit, note = _answer(tmp_path, "src/fetch.ts:999")
    assert (hit.startLine, hit.endLine) == (13, 13)
    assert hit.snippet == "12: return parseFunction;\n13: }"  # a brace alone: the code above
    assert note == "src/fetch.ts:999 is past the file's end (13 lines): its hit shows the last line"
    assert _answer(tmp_path, "src/fetch.ts:11")[1] is None


def test_a_blank_line_shows_the_code_nearest_it(tmp_path: Path) -> None:
    """QA on pallets/jinja: a place on a blank line had no snippet at all."""
    hit = _hit(tmp_path, "src/fetch.ts:10")
    assert (hit.startLine, hit.endLine) == (10, 10)
    assert hit.snippet == (
        "9: const step9 = 9;\n"
        "11: const parseFunction = context.options.parseResponse || JSON.parse;"
    )


def test_what_names_a_place() -> None:
    assert named_place("src/app.ts:18-49") == Place("src/app.ts", 18, 49)
    assert named_place("  App.ts#L7  ") == Place("app.ts", 7, 7)
    assert named_place("src/app.ts") is None  # no lines: the head (hit_details._at_head)
    assert named_place("src/app.ts:0") is None
    assert named_place("fix the bug at src/app.ts:12") is None  # a sentence, not a place
    assert named_place(":12") is None


def test_a_sentence_naming_a_place_points_at_it(tmp_path: Path) -> None:
    """`why does src/fetch.ts:11 throw?` asks about line 11 as the bare place does."""
    for query in ("why does src/fetch.ts:11 throw?", "see `fetch.ts#L11-L12`, it parses"):
        hit = _hit(tmp_path, query)
        assert hit.startLine == 11, query
        assert hit.snippet is not None and hit.snippet.startswith("11: const parseFunction")
