"""Each test file's subject placed just above it (query_api.retrieval.subjects), the
subject's name read from the test's (processors.path_roles.subject_name), and the subject
chosen among the files of that name (query_api.symbols.tested_by)."""

from __future__ import annotations

import pytest

from processors.path_roles import subject_name
from query_api.retrieval.subjects import subjects_first
from query_api.retrieval.tests_first import tests_first as with_tests_first
from query_api.symbols.tested_by import subject_of_test
from schemas import tools as t


def nearest(test: str, indexed: list[str]) -> str | None:
    """The subject of `test` among `indexed` (a path read: the files with that name)."""
    return subject_of_test(test, lambda name: [p for p in indexed if f"/{p}".endswith(f"/{name}")])


def hit(path: str, score: float, *reasons: str) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(score=score, entry=entry, reasons=list(reasons))


SUBJECTS = {"tests/test_pager.py": "src/pager.py", "tests/test_core.py": "src/core.py"}


def order(hits: list[t.SearchHit], k: int = 10) -> list[str]:
    out = subjects_first(hits, k, SUBJECTS.get, lambda path: hit(path, 0.0))
    return [h.entry.path or "" for h in out]


@pytest.mark.parametrize(
    ("test", "subject"),
    [
        ("packages/zod/tests/locales/fr.test.ts", "fr.ts"),
        ("tests/test_termui.py", "termui.py"),
        ("router_test.go", "router.go"),
        ("src/test/java/FooTest.java", "Foo.java"),
        ("FooIT.java", "Foo.java"),
        ("src/app.spec.tsx", "app.tsx"),
        ("index.test-d.ts", "index.ts"),  # tsd's type tests
        ("crates/x/src/walk_test.rs", "walk.rs"),
        ("tests/helpers.py", None),
        ("conftest.py", None),
    ],
)
def test_a_subject_is_named_by_the_test_name(test: str, subject: str | None) -> None:
    assert subject_name(test) == subject


def test_a_subject_below_its_test_moves_up_and_a_missing_one_comes_in() -> None:
    hits = [hit("tests/test_pager.py", 0.9), hit("src/other.py", 0.8), hit("src/pager.py", 0.2)]
    assert order(hits) == ["src/pager.py", "tests/test_pager.py", "src/other.py"]
    moved = subjects_first(hits, 10, SUBJECTS.get, lambda p: None)[0]
    assert moved.score == 0.9 and moved.reasons == ["tested-by:tests/test_pager.py"]
    # not in the answer: hydrated, and the answer keeps its k
    assert order([hit("tests/test_core.py", 0.9), hit("src/a.py", 0.5)], k=2) == [
        "src/core.py",
        "tests/test_core.py",
    ]


def test_a_subject_already_above_and_tests_without_one_stay() -> None:
    hits = [hit("src/pager.py", 0.9), hit("tests/test_pager.py", 0.8), hit("tests/x.py", 0.7)]
    assert order(hits) == ["src/pager.py", "tests/test_pager.py", "tests/x.py"]
    assert order([hit("tests/test_gone.py", 0.9)]) == ["tests/test_gone.py"]


def test_the_nearest_source_of_that_name_is_the_subject() -> None:
    found = ["packages/a/src/fr.ts", "packages/b/src/locales/fr.ts", "packages/b/tests/fr.ts"]
    assert nearest("packages/b/tests/locales/fr.test.ts", found) == "packages/b/src/locales/fr.ts"
    assert nearest("x/fr.test.ts", ["docs/fr.md"]) is None
    # beside the test's home with the folders below its test folder (zod's locales)
    zod = "packages/zod/src/v4/core/tests/locales/fr.test.ts"
    assert (
        nearest(zod, ["packages/zod/src/v4/locales/fr.ts"]) == "packages/zod/src/v4/locales/fr.ts"
    )
    java = "src/test/java/com/x/FooTest.java"
    assert nearest(java, ["src/main/java/com/x/Foo.java"]) == "src/main/java/com/x/Foo.java"
    assert nearest("router_test.go", ["router.go", "sub/router.go"]) == "router.go"


def test_a_file_of_that_name_far_from_the_test_is_not_its_subject() -> None:
    # a QA pass: zod's core/tests/extend.test.ts got packages/tsc/extend.ts (a type benchmark)
    test = "packages/zod/src/v4/core/tests/extend.test.ts"
    assert nearest(test, ["packages/tsc/extend.ts"]) is None
    # v3's coerce test is not v4's coerce module's
    assert (
        nearest("packages/zod/src/v3/tests/coerce.test.ts", ["packages/zod/src/v4/mini/coerce.ts"])
        is None
    )
    assert nearest("pkg/a/foo_test.go", ["pkg/b/foo.go"]) is None


def test_a_subject_cut_from_the_answer_keeps_its_own_reasons() -> None:
    pool = [hit("tests/test_core.py", 0.9), hit("src/core.py", 0.5, "content-match")]
    out = subjects_first(pool[:1], 1, SUBJECTS.get, lambda path: hit(path, 0.0), pool)
    assert [(h.entry.path, h.reasons) for h in out] == [
        ("src/core.py", ["content-match", "tested-by:tests/test_core.py"])
    ]


def test_an_index_file_is_named_by_its_folder_and_a_test_folder_s_tail() -> None:
    # elysia: test/adapter/bun/index.test.ts was src/index.ts's (the shortest index.ts)
    indexed = ["src/index.ts", "src/adapter/index.ts", "src/adapter/bun/index.ts"]
    assert nearest("test/adapter/bun/index.test.ts", indexed) == "src/adapter/bun/index.ts"
    assert nearest("test/adapter.test.ts", indexed) == "src/adapter/index.ts"
    assert nearest("src/adapter/index.test.ts", indexed) == "src/adapter/index.ts"
    assert nearest("test/hoc/index.test.ts", indexed) is None  # no hoc module
    # a test folder's own package file names no module
    assert nearest("tests/__init__.py", ["src/pkg/__init__.py"]) is None
    assert nearest("tests/test_pkg.py", ["src/pkg/__init__.py"]) == "src/pkg/__init__.py"


def test_an_unmarked_python_file_among_the_tests_tests_nothing() -> None:
    # a QA pass on marshmallow: related of src/marshmallow/base.py listed tests/base.py (the
    # schemas the tests share, imported by them) as its test, and search gave base.py the
    # reason tested-by:tests/base.py; pytest collects only test_*.py and *_test.py
    assert nearest("tests/base.py", ["src/marshmallow/base.py"]) is None
    assert nearest("tests/utils.py", ["src/marshmallow/utils.py"]) is None
    assert nearest("tests/pkg/helpers.py", ["src/pkg/__init__.py"]) is None
    assert nearest("tests/test_base.py", ["src/marshmallow/base.py"]) == "src/marshmallow/base.py"
    # a JavaScript file in a test folder is still named by its name (mocha's test/create.ts)
    assert nearest("test/create.ts", ["src/create.ts"]) == "src/create.ts"


def test_a_files_tests_go_above_it_only_while_both_stay_in_the_answer() -> None:
    """QA on encode/uvicorn: `tests for proxy headers` answered tests/test_main.py with the
    reason `tests:uvicorn/main.py` while main.py itself was not in the answer: main.py was
    its last hit, and its test, placed above it, pushed it out."""
    tests = {"src/pager.py": ["tests/test_pager.py"], "src/core.py": ["tests/test_core.py"]}

    def first(hits: list[t.SearchHit], k: int) -> list[str]:
        out = with_tests_first(hits, k, lambda p: tests.get(p, []), lambda p: hit(p, 0.0))
        return [h.entry.path or "" for h in out]

    hits = [hit("src/pager.py", 2.0), hit("src/core.py", 1.0)]
    assert first(hits, 4) == [
        "tests/test_pager.py", "src/pager.py", "tests/test_core.py", "src/core.py"
    ]  # fmt: skip
    assert first(hits, 3) == ["tests/test_pager.py", "src/pager.py", "src/core.py"]
    assert first(hits, 1) == ["src/pager.py"]


def test_of_a_files_many_tests_those_the_ranking_holds_go_first() -> None:
    """koa: `tests for the response body` placed append, attachment and back.test.js (the
    first three of lib/response.js's 30 tests by path) above it, not body.test.js, which the
    ranking held."""
    named = [f"__tests__/response/{n}.test.js" for n in ("append", "attachment", "back", "body")]
    hits = [hit("lib/response.js", 2.0), hit("lib/other.js", 1.0)]
    pool = [*hits, hit("__tests__/response/body.test.js", 0.5)]
    out = with_tests_first(hits, 10, lambda p: named if p == "lib/response.js" else [],
                           lambda p: hit(p, 0.0), pool)  # fmt: skip
    assert [h.entry.path for h in out][:2] == ["__tests__/response/body.test.js", named[0]]
