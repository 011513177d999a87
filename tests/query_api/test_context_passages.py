"""A semantic hit's best passage as lines of its file (query_api.retrieval.passages)."""

from __future__ import annotations

from pathlib import Path

from processors.tokens import count_tokens
from processors.vectors import chunks, file_key
from query_api.context.candidates import Candidate
from query_api.context.count_memo import CountMemo
from query_api.context.entries import EntryRenderer
from query_api.context.spans import Focus, task_stems
from query_api.retrieval.hit_details import MAX_RANGE_LINES, HitLocator, _detailed, query_terms
from query_api.retrieval.passages import passage_lines
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.vectors import point_id
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records


def _body() -> str:
    # blocks of ~700 characters, blank-line separated: each a passage of its own
    block = "\n".join(f"    value_{i} = compute({i})  # a line of code" for i in range(16))
    return "\n\n".join(f"def f{n}():\n{block}" for n in range(4)) + "\n"


def test_a_passages_point_id_names_its_lines() -> None:
    body = _body()
    key = file_key("r", "src/m.py")
    lines = body.split("\n")
    assert len(chunks(body)) >= 3
    for index, block in enumerate(chunks(body)):
        found = passage_lines("r", "src/m.py", body, point_id(key, index))
        assert found is not None
        first, last = found
        assert "\n".join(lines[first - 1 : last]) == block


def test_another_files_or_no_passage_names_no_lines() -> None:
    body = _body()
    assert passage_lines("r", "src/m.py", body, None) is None
    assert passage_lines("r", "src/m.py", body, point_id(file_key("r", "src/other.py"), 0)) is None
    assert passage_lines("r", "src/m.py", body, point_id(file_key("r", "src/m.py"), 99)) is None


def test_a_sliced_entry_holds_the_declaration_of_its_best_passage(tmp_path: Path) -> None:
    """The renderer reads the candidate's best passage (its `vectorId`) and the spans take
    the declaration it lies in, which no word of the task names here."""
    filler = "\n".join(
        f"    total_{i} = step({i})  # accumulate the running totals" for i in range(40)
    )
    functions = [f"def handler_{n}(request):\n{filler}\n    return total_0\n" for n in range(6)]
    body = "\n\n".join(functions)
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records("src/app.py", body), {})
        row = views.get_content("r", "src/app.py")
        assert row is not None
        key = file_key("r", "src/app.py")
        # the passage that starts handler_4
        index = next(i for i, c in enumerate(chunks(body)) if c.startswith("def handler_4"))
        renderer = EntryRenderer(views, CountMemo(count_tokens))
        full = count_tokens(body)
        focus = Focus(task_stems("make the request handler faster"), spans=1)
        for passage, wanted in (
            (None, "src.app.handler_0"),
            (point_id(key, index), "src.app.handler_4"),
        ):
            cand = Candidate("src/app.py", 1.0, ["semantic"], [], passage)
            _, units, _, whole = renderer.slices("r", cand, row, full, focus, cap=600)
            assert not whole and [symbol for _, symbol in units] == [wanted]


PATH = "src/m.py"


def test_a_hit_no_query_word_is_on_names_the_lines_of_its_best_passage(tmp_path: Path) -> None:
    """20 of the 620 gold files in the tuning half's top 10 came with no lines: the vectors
    found them by meaning and no line holds a word of the query. Their lines are now the best
    passage's."""
    body = _body()
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records("src/m.py", body), {})
        index = 2
        hit = t.SearchHit(
            score=1.0,
            entry=t.EntryView(
                key="repo/r/file/src/m.py", exists=True, kind="File", path="src/m.py"
            ),
            vectorId=point_id(file_key("r", "src/m.py"), index),
            reasons=["semantic", "chunk:file"],
        )
        terms = query_terms("speed up the slow startup")
        shown = _detailed(HitLocator(views), "r", "src/m.py", body, terms, hit)
        first, last = passage_lines("r", "src/m.py", body, hit.vectorId) or (0, 0)
        assert (shown.startLine, shown.endLine) == (first, min(last, first + MAX_RANGE_LINES - 1))
        assert shown.snippet is not None and shown.snippet.startswith(f"{first}: def f2():")
        # without a vector, as before: no lines
        plain = _detailed(
            HitLocator(views),
            "r",
            "src/m.py",
            body,
            terms,
            hit.model_copy(update={"vectorId": None}),
        )
        assert plain.startLine is None
