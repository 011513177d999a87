"""A question about tests gets the test code before the fixtures its tests read
(query_api/retrieval/test_fixtures.py). QA on apache/commons-csv: `which test covers
getBytePosition with a BOM` ranked src/test/resources/.../bom.csv first."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.test_fixtures import fixtures_after_tests
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

RES = "src/test/resources/org/x/"


def _hit(path: str, score: float) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(score=score, entry=entry, reasons=["content-match"])


def test_the_fixtures_above_the_first_test_go_just_below_it() -> None:
    hits = [
        _hit(RES + "bom.csv", 9.0),
        _hit("src/main/java/org/x/Record.java", 8.0),
        _hit(RES + "bom.json", 7.0),
        _hit("src/test/java/org/x/ParserTest.java", 6.0),
        _hit(RES + "other.csv", 5.0),
    ]
    out = fixtures_after_tests(hits)
    assert [h.entry.path for h in out] == [
        "src/main/java/org/x/Record.java",
        "src/test/java/org/x/ParserTest.java",
        RES + "bom.csv",
        RES + "bom.json",
        RES + "other.csv",
    ]
    assert [h.score for h in out] == [9.0, 8.0, 7.0, 6.0, 5.0]


def test_without_a_test_file_the_fixtures_stay() -> None:
    hits = [_hit(RES + "bom.csv", 9.0), _hit("src/main/java/org/x/Record.java", 8.0)]
    assert fixtures_after_tests(hits) == hits


BOM_TEST = """package org.x;

class ParserTest {
    @Test
    void testGetBytePositionWithBom() {
        parse(getClass().getResource("/org/x/bom.csv"));
    }
}
"""


async def test_a_question_about_tests_gets_the_test_before_its_fixture(tmp_path: Path) -> None:
    query = "which test covers getBytePosition with a BOM"
    files = {
        "src/main/java/org/x/Record.java": "package org.x;\nclass Record {\n"
        "  long getBytePosition() { return 0; }\n}\n",
        "src/test/java/org/x/ParserTest.java": BOM_TEST,
        "src/test/resources/org/x/bom.csv": "\ufeffa,b,c\n1,2,3\n",
    }
    async with indexed_app(tmp_path, files) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
    paths = [hit.entry.path for hit in answer.hits]
    assert paths.index("src/test/java/org/x/ParserTest.java") < paths.index(
        "src/test/resources/org/x/bom.csv"
    ), paths
