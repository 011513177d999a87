"""A config question naming CI (`where is the CI workflow`, `how is CI configured`) is
answered by the files CI services read, though they never write `ci`. QA on PyCQA/flake8:
`where is the CI workflow` put no file of .github/workflows/ in the first ten (its one
workflow is `name: main`), .pylintrc leading for a `confidence=` line."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.ci_files import ci_words, is_ci_file
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    ".github/workflows/main.yml": "name: main\non:\n  push:\njobs:\n  main:\n"
    "    runs-on: ubuntu-latest\n    steps:\n    - run: tox -e py\n",
    ".github/workflows/docs.yml": "name: docs\non:\n  push:\njobs:\n  build:\n"
    "    steps:\n    - run: make html\n",
    ".pylintrc": "[MESSAGES CONTROL]\n# confidence levels of the checks\nconfidence=HIGH\n",
    "app/decide.py": "def decide(code):\n    # a decision for each code\n    return code\n",
    "tox.ini": "[tox]\nenvlist = py\n",
}


async def test_a_question_naming_ci_is_answered_by_the_ci_files(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        for query in ("where is the CI workflow", "how is CI configured"):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            top = {h.entry.path for h in answer.hits[:2]}
            assert top == {".github/workflows/main.yml", ".github/workflows/docs.yml"}, (
                query,
                answer.hits,
            )
        # of the workflows, the one holding the question's other words leads
        query = "which workflow builds the docs on CI"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        assert [h.entry.path for h in answer.hits][:1] == [".github/workflows/docs.yml"]
        # a request naming CI is no config question: its code leads
        answer = await app.service.search(t.SearchArgs(repoId="repo", query="decide on CI"))
        assert [h.entry.path for h in answer.hits][:1] == ["app/decide.py"], answer.hits


def test_the_words_and_paths_of_ci() -> None:
    assert ci_words({"ci"}) == {"ci"}
    assert ci_words({"github", "actions", "tests"}) == {"github", "actions"}
    assert ci_words({"actions"}) == frozenset()
    assert is_ci_file(".github/workflows/release.yaml")
    assert is_ci_file(".gitlab-ci.yml") and is_ci_file("ci/Jenkinsfile")
    assert not is_ci_file(".github/ISSUE_TEMPLATE/bug.yml")
    assert not is_ci_file("docs/workflows/main.yml")
