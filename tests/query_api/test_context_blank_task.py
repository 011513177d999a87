"""A bundle for a task of blanks alone answers, with nothing packed and a note, rather than
failing: the plan's first files were none, and reading the first of them raised IndexError
(query_api/context/plan.py `_cover`). Found by feeding hostile tasks to the bundle
(tests/bench/hostile_queries.py): 8,000 newlines at a 2,000-token budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas.bundle import ContextArgs
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "src/app.py": "class App:\n    def route(self, path):\n        raise ValueError(path)\n",
    "tests/test_app.py": "def test_route():\n    assert App().route('/')\n",
    "README.md": "# App\nA router.\n",
}


async def test_a_task_of_newlines_answers_with_nothing_packed(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        for task in ("\n" * 8000, "\n" * 16_384, "\n \t" * 3000):
            args = ContextArgs(repoId="repo", task=task, responseBudgetTokens=2000)
            answer = await app.services.bundle.context(args)
            assert answer.entries == [], answer.entries
