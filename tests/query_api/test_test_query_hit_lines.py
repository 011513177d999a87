"""A query about tests (`tests for reach`, `string tests`) points a test file's hit at the
lines about its subject, not at the lines holding `test`: QA on jquense/yup, `tests for reach`
pointed test/yup.js at line 216, `test.each([`, where its `reach(...)` checks are at lines
109-112."""

from __future__ import annotations

from pathlib import Path

from schemas import tools as t
from tests.query_api.located import located_hits

PATH = "test/yup.js"
BODY = "\n".join(
    [
        "import { reach, object, string } from '../src';",  # 1
        "",
        "describe('Yup', () => {",  # 3
        "  it('should REACH correctly', () => {",  # 4
        "    let inst = object({ num: string() });",  # 5
        "    expect(reach(inst, 'num')).toBeDefined();",  # 6
        "  });",  # 7
        "",
        "  test.each([",  # 9
        "    ['test', 'tests'],",  # 10
        "  ])('test %s', (name) => {",  # 11
        "    expect(name).toBeTruthy();",  # 12
        "  });",  # 13
        "});",  # 14
        "",
    ]
)


def _hit(tmp_path: Path, query: str) -> t.SearchHit:
    [shown] = located_hits(tmp_path, {PATH: BODY}, query)
    return shown


def test_a_query_about_tests_points_at_its_subject(tmp_path: Path) -> None:
    hit = _hit(tmp_path, "tests for reach")
    assert hit.snippet is not None and "reach(" in hit.snippet, hit
    assert "test.each" not in hit.snippet, hit


def test_a_query_naming_tests_otherwise_keeps_its_words(tmp_path: Path) -> None:
    # `fix flaky tests` is a change, not a query about tests: its words pick the lines
    hit = _hit(tmp_path, "fix the test each table")
    assert hit.snippet is not None and "test.each" in hit.snippet, hit
