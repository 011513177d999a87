"""`where is X instantiated`, `what instantiates X` and `who constructs X` ask for the files
creating X, its users, as `what uses X` does. QA on PyCQA/flake8: `where is StyleGuideManager
instantiated` matched no users form and led with style_guide.py's `class StyleGuideManager:`,
main/application.py's `style_guide.StyleGuideManager(...)` second."""

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
        ("where is StyleGuideManager instantiated", "StyleGuideManager"),
        ("where is the Manager class constructed?", "Manager"),
        ("what instantiates FileChecker", "FileChecker"),
        ("who constructs OptionManager", "OptionManager"),
        ("which files instantiate DecisionEngine", "DecisionEngine"),
    ],
)
def test_an_instantiation_question_asks_for_the_users(query: str, name: str) -> None:
    assert used_name(query) == name
    assert not asks_implementers(query)


FILES = {
    "app/guide.py": 'class StyleGuideManager:\n    """Manage the style guides."""\n',
    "app/application.py": "from app import guide\n\n\nclass Application:\n"
    "    def __init__(self):\n        self.guide: guide.StyleGuideManager | None = None\n\n"
    "    def make_guide(self, options):\n"
    "        self.guide = guide.StyleGuideManager(options)\n",
}


async def test_the_files_creating_it_come_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        query = "where is StyleGuideManager instantiated"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        assert [h.entry.path for h in answer.hits][:1] == ["app/application.py"], answer.hits
        # at the call creating it (line 9), not the attribute's annotation (line 6)
        assert answer.hits[0].snippet is not None, answer.hits[0]
        assert answer.hits[0].snippet.startswith("9: "), answer.hits[0]
