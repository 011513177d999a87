"""A question about tests gets the test code before the data its tests read.

A test folder holds fixtures beside the tests (src/test/resources/.../bom.csv), and a
fixture's path often holds the question's words whole: QA on apache/commons-csv, `which
test covers getBytePosition with a BOM` ranked CSVFileParser/bom.csv first, above
CSVParserTest's testGetBytePositionWithBomEmittingCharset, and `where is the regression test
for CSV-254` ranked CSV-254/csv-254.csv above JiraCsv254Test. Such a question asks for the
code that tests; the fixtures a test reads come after the first test the answer holds.
"""

from __future__ import annotations

from processors.path_roles import Role, role_of
from schemas import tools as t

# the suffixes of the data a test reads (a fixture of code, a `conftest.py`, stays code)
FIXTURE_SUFFIXES = (
    ".csv", ".tsv", ".txt", ".json", ".xml", ".yaml", ".yml", ".gz", ".zip", ".bin", ".dat",
    ".snap", ".golden", ".pem", ".crt", ".key",
)  # fmt: skip


def is_fixture(path: str) -> bool:
    """Whether `path` is data in a test folder rather than a test."""
    return role_of(path) == Role.TEST and path.lower().endswith(FIXTURE_SUFFIXES)


def fixtures_after_tests(hits: list[t.SearchHit]) -> list[t.SearchHit]:
    """`hits` with the fixtures ranked above the first test file moved just below it, in
    their order, the scores kept in their places; `hits` itself when none is."""
    first = next((n for n, hit in enumerate(hits) if _is_test_code(hit)), None)
    if first is None:
        return hits
    head = hits[: first + 1]
    fixtures = [hit for hit in head[:-1] if _is_fixture_hit(hit)]
    if not fixtures:
        return hits
    moving = {id(hit) for hit in fixtures}
    order = [*(hit for hit in head if id(hit) not in moving), *fixtures]
    scores = [hit.score for hit in head]
    moved = [
        hit.model_copy(update={"score": score}) for hit, score in zip(order, scores, strict=True)
    ]
    return [*moved, *hits[first + 1 :]]


def _is_fixture_hit(hit: t.SearchHit) -> bool:
    return hit.entry.kind == "File" and is_fixture(hit.entry.path or "")


def _is_test_code(hit: t.SearchHit) -> bool:
    path = hit.entry.path or ""
    return hit.entry.kind == "File" and role_of(path) == Role.TEST and not is_fixture(path)
