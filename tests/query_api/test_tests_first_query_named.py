"""A query about tests places first, above a source file, the test file named for it and for
the words the query adds (query_api/retrieval/tests_first.query_named_tests): TailerCloseTest
for `tests for Tailer close`, though the convention names only TailerTest for Tailer.java."""

from __future__ import annotations

from query_api.retrieval.tests_first import query_named_tests, subject_named_tests
from query_api.retrieval.tests_first import tests_first as with_tests_first
from schemas import tools as t

MAIN = "src/main/java/org/apache/commons/io/input/"
TEST = "src/test/java/org/apache/commons/io/input/"
TAILER = MAIN + "Tailer.java"
TAILER_TEST = TEST + "TailerTest.java"
CLOSE_TEST = TEST + "TailerCloseTest.java"


def hit(path: str, score: float, *reasons: str) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(score=score, entry=entry, reasons=list(reasons))


def test_the_test_named_for_the_query_s_words_goes_first() -> None:
    """QA on apache/commons-io: `tests for Tailer close` answered TailerTest.java (pointed at
    a helper's `close()`), Tailer.java, then TailerCloseTest.java, the test written for it."""
    hits = [hit(TAILER, 1.0), hit(TAILER_TEST, 0.9), hit(CLOSE_TEST, 0.75)]
    out = with_tests_first(
        hits, 10, lambda p: [TAILER_TEST] if p == TAILER else [], lambda p: None, hits,
        "tests for Tailer close",
    )  # fmt: skip
    assert [h.entry.path for h in out] == [CLOSE_TEST, TAILER_TEST, TAILER], out
    assert out[0].reasons[0] == "tests:" + TAILER, out[0]


def test_only_words_the_query_writes_in_a_row_name_it() -> None:
    paths = [CLOSE_TEST, TEST + "TailerReopenTest.java", TAILER_TEST, MAIN + "TailerClose.java"]
    assert query_named_tests(TAILER, paths, "tests for Tailer close") == [CLOSE_TEST]
    assert query_named_tests(TAILER, paths, "tests for Tailer") == []
    assert query_named_tests(TAILER, paths, "close the tailer tests") == [CLOSE_TEST]


def test_a_python_test_module_with_the_query_s_words() -> None:
    paths = ["tests/test_pager_scroll.py", "tests/test_pager.py", "tests/test_scroll.py"]
    found = query_named_tests("src/pager.py", paths, "where are the tests for pager scroll")
    assert found == ["tests/test_pager_scroll.py"], found


def test_a_test_in_another_place_is_not_named_for_it() -> None:
    other = "src/test/java/org/apache/commons/io/output/TailerCloseTest.java"
    assert query_named_tests(TAILER, [other], "tests for Tailer close") == []


def test_the_test_named_for_the_query_s_words_alone_goes_first() -> None:
    """QA on fastapi/typer: `tests for suggest commands` ranked typer/main.py, holding the
    words, above tests/test_suggest_commands.py; no source file is named for them, so
    query_named_tests placed nothing. Of tests named for fewer of the words (test_hidden.py
    for `hidden commands`), only where none names more."""
    main, core, core_test = "typer/main.py", "typer/core.py", "tests/test_core.py"
    suggest = "tests/test_suggest_commands.py"
    hits = [hit(main, 1.0), hit(core, 0.9), hit(core_test, 0.8), hit(suggest, 0.7)]
    out = with_tests_first(
        hits, 3, lambda p: [core_test] if p == core else [], lambda p: None, hits,
        "tests for suggest commands",
    )  # fmt: skip
    assert [h.entry.path for h in out] == [suggest, main, core_test], out
    assert out[0].score == 1.0
    paths = ["tests/test_hidden.py", "tests/test_hidden_commands.py", "tests/test_commands.py"]
    assert subject_named_tests(paths, "tests for hidden commands") == [paths[1]]
    assert subject_named_tests(paths[:1], "tests for hidden commands") == [paths[0]]
    # a stop word or a word naming tests names none; nor a source file
    assert subject_named_tests(["tests/test_for.py", "pkg/commands.py"], "tests for commands") == []


def test_a_test_named_for_a_words_plural_or_singular() -> None:
    """QA on pmndrs/jotai: `where are the TypeScript type tests` ranked atomFamily's test
    (its `type:` field) and source above tests/vanilla/types.test.tsx, named `types`."""
    paths = ["tests/vanilla/utils/atomFamily.test.ts", "tests/vanilla/types.test.tsx"]
    assert subject_named_tests(paths, "where are the TypeScript type tests") == [paths[1]]
    assert subject_named_tests(["tests/test_command.py"], "tests for commands") == [
        "tests/test_command.py"
    ]
    # the form of a word inside a run names no test: `hidden command` is no `hiddens`
    assert subject_named_tests(["tests/test_hiddens_command.py"], "tests for hidden command") == []
