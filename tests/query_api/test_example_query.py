"""A query asking for examples (`example of a progress bar with multiple tasks`, `show me an
example using Live`) puts the example files holding its subject first, as a docs query does
docs. Examples are pushed down and never embedded: QA on Textualize/rich ranked
rich/progress.py, progress_bar.py, live.py and default_styles.py above
examples/dynamic_progress.py, the first example, 5th."""

from __future__ import annotations

import pytest

from processors.path_roles import Role, roles_about, without_example_words
from query_api.retrieval.docs_first import asked_pages_first, holds_subject
from query_api.retrieval.hit_details import QueryTerms
from schemas import tools as t


@pytest.mark.parametrize(
    "query",
    [
        "example of a progress bar with multiple tasks",
        "show me an example using Live",
        "examples for Table",
        "is there an example that prints a tree?",
        "sample for validation groups",
        "samples using nested objects",
    ],
)
def test_a_query_about_examples(query: str) -> None:
    assert Role.EXAMPLE in roles_about(query)


@pytest.mark.parametrize(
    "query", ["add an example of X", "fix the example", "for example X", "update the samples for X"]
)
def test_a_request_is_not_about_examples(query: str) -> None:
    assert Role.EXAMPLE not in roles_about(query)


def _hit(path: str, score: float) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(score=score, entry=entry, reasons=["content-match"])


def test_the_examples_holding_the_subject_come_first() -> None:
    query = "example of a progress bar with multiple tasks"
    assert without_example_words(query) == "a progress bar with multiple tasks"
    hits = [
        _hit("rich/progress.py", 1.0),
        _hit("examples/table.py", 0.5),
        _hit("examples/dynamic_progress.py", 0.48),
    ]
    bodies = {"examples/table.py": "table = Table()\n", "examples/dynamic_progress.py": "tasks"}

    def holds(path: str, terms: QueryTerms) -> bool:
        return holds_subject(bodies.get(path, "progress"), terms)

    paths = [h.entry.path for h in asked_pages_first(query, hits, holds)]
    assert paths == ["examples/dynamic_progress.py", "rich/progress.py", "examples/table.py"]


def test_the_words_asking_for_samples_are_not_searched() -> None:
    """QA on typestack/class-validator, whose examples live under sample/."""
    assert without_example_words("sample for validation groups") == "validation groups"
