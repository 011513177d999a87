"""A question about the tests of a subject of several words puts first the test file
declaring a test named for them (`test_tomlkit_converter`), over one whose file is named for
fewer of them (query_api/retrieval/tests_first.declared_named_tests). QA on python-attrs/
cattrs: `which tests cover the tomlkit converter` ranked tests/test_converter.py (named for
`converter`) first and tests/test_preconf.py, declaring test_tomlkit_converter, third."""

from __future__ import annotations

from query_api.retrieval.tests_first import subject_named_tests
from schemas import tools as t


def hit(path: str, *reasons: str) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(score=1.0, entry=entry, reasons=list(reasons))


HITS = [
    hit("tests/test_converter.py", "path-name-match", "symbol:tests.test_converter.test_copy"),
    hit("src/pkg/preconf/tomlkit.py", "symbol:pkg.preconf.tomlkit.TomlkitConverter"),
    hit("tests/test_preconf.py", "symbol:tests.test_preconf.test_tomlkit_converter"),
    hit("tests/test_go.go", "symbol:TestTomlkitConverterRoundtrip"),
]
PATHS = [h.entry.path or "" for h in HITS]


def test_a_test_named_for_more_of_the_words_comes_first() -> None:
    query = "which tests cover the tomlkit converter"
    assert subject_named_tests(PATHS, query) == ["tests/test_converter.py"]
    assert subject_named_tests(PATHS, query, HITS) == ["tests/test_preconf.py"]


def test_a_test_named_for_as_many_words_leaves_the_file_named_so() -> None:
    """`tests for the converter`: test_converter.py is named for all of it; a test function
    `test_converter` elsewhere names no more."""
    hits = [*HITS, hit("tests/test_misc.py", "symbol:tests.test_misc.test_converter")]
    assert subject_named_tests(PATHS, "tests for the converter", hits) == [
        "tests/test_converter.py"
    ]


def test_a_go_test_function_names_its_subject_too() -> None:
    hits = [hit("pkg/codec_test.go", "symbol:pkg.TestTomlkitConverter")]
    assert subject_named_tests([], "tests for the tomlkit converter", hits) == ["pkg/codec_test.go"]
