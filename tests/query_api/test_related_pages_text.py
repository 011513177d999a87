"""A test file among a file's dependents is written once, under tests, on every page of a
related answer (query_api/answers/related_text.py). QA on spf13/pflag: related(flag.go)
listed its 30 test files under tests on the first page, and again, with their symbols, as
dependents 42-71 on the page at offset 40, where the tests list had ended."""

from __future__ import annotations

from query_api.answers.render import render
from schemas import symbols as sy
from schemas.symbols import SymbolAt


def test_a_later_page_does_not_list_again_the_test_files_listed_under_tests() -> None:
    a_test = [SymbolAt(symbol=f"pflag.Test{n}", path="flag_test.go") for n in ("One", "Two")]
    answer = sy.RelatedResult(
        repoId="r",
        path="flag.go",
        exists=True,
        dependents=[SymbolAt(symbol="pflag.AddGoFlag", path="golangflag.go"), *a_test],
        tests=[],
        dependentCount=82,
        dependentFiles=42,
        testCount=2,
        testFiles=1,
    )
    assert render(answer)[1].splitlines()[2:] == [
        "dependents: files 41-42 of 42, 3 of 82 symbols",
        "  golangflag.go: pflag.AddGoFlag",
        "  and 1 test file, listed under tests",
        "tests: offset past the last of 1 file",
    ]


def test_a_test_file_the_tests_list_does_not_hold_stays_a_dependent() -> None:
    """An unpaged answer whose tests list lacks the file (none of its symbols): listed."""
    answer = sy.RelatedResult(
        repoId="r",
        path="flag.go",
        exists=True,
        dependents=[SymbolAt(symbol="pflag.TestOne", path="flag_test.go")],
        tests=[],
    )
    assert render(answer)[1].splitlines()[2:4] == [
        "dependents:",
        "  flag_test.go: pflag.TestOne",
    ]
