"""`what breaks if I change X`, `what is affected by changing X` and `the impact of renaming
X` ask for the files using X, as `what uses X` does. QA on PyCQA/flake8: `what breaks if I
change Violation` matched no users form and answered violation.py, then api/legacy.py's
`get_statistics(self, violation: str)` for the word, none of the style guide, formatters and
checker building and reading Violation."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import asks_implementers, used_name
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("what breaks if I change Violation", "Violation"),
        ("what would break if we rename parse_args?", "parse_args"),
        ("what is affected by changing StyleGuide.handle_error", "StyleGuide.handle_error"),
        ("what would be affected if I modify `DecisionEngine`", "DecisionEngine"),
        ("impact of changing Violation", "Violation"),
        ("the impact of removing FileChecker.report", "FileChecker.report"),
    ],
)
def test_an_impact_question_asks_for_the_users(query: str, name: str) -> None:
    assert used_name(query) == name
    assert not asks_implementers(query)


def test_a_request_is_no_such_question() -> None:
    assert used_name("change Violation so nothing breaks") is None
    assert used_name("what breaks the build") is None


FILES = {
    "app/violation.py": "class Violation:\n    code: str\n",
    "app/guide.py": "from app.violation import Violation\n\n\ndef handle(code):\n"
    "    return Violation(code)\n",
    "app/legacy.py": "def get_statistics(violation: str) -> list[str]:\n"
    "    # a violation's statistics, for a violation code\n    return [violation]\n",
}


async def test_the_files_using_the_name_come_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        query = "what breaks if I change Violation"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        assert [h.entry.path for h in answer.hits][:1] == ["app/guide.py"], answer.hits
