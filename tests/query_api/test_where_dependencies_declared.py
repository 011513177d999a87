"""`where are the dependencies declared` asks for the manifest's dependency list, as `which
dependencies does the project have` does. QA on python-jsonschema/jsonschema: it matched no
config form, was read as asking where a name `dependencies` is declared, and ranked
_legacy_keywords.py's `dependencies_draft3` (the JSON Schema keyword) first and
pyproject.toml (`dependencies = [...]`) nowhere in the first ten."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.path_roles import Role, manifest_list, roles_about
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

QUERIES = [
    "where are the dependencies declared",
    "where are the dependencies defined?",
    "where are the project's dependencies listed",
    "where are the dev dependencies",
]
FILES = {
    "pyproject.toml": (
        "[project]\nname = 'gauge'\nrequires-python = '>=3.10'\n"
        "dependencies = [\n  'attrs>=22.2.0',\n  'referencing>=0.28.4',\n]\n"
    ),
    "pkg/keywords.py": (
        "def dependencies_draft3(validator, dependencies, instance, schema):\n"
        "    for property, dependency in dependencies.items():\n"
        "        yield property, dependency\n\n\n"
        "def dependentRequired(validator, dependentRequired, instance, schema):\n"
        "    return dependencies_draft3(validator, dependentRequired, instance, schema)\n"
    ),
    "pkg/validators.py": (
        "from pkg import keywords\n\nVALIDATORS = {\n"
        "    'dependencies': keywords.dependencies_draft3,  # the dependencies keyword\n}\n"
    ),
}


@pytest.mark.parametrize("query", QUERIES)
def test_where_the_dependencies_are_is_a_manifest_question(query: str) -> None:
    assert Role.CONFIG in roles_about(query), query
    assert manifest_list(query) == "dependencies", query


def test_a_keyword_named_dependencies_is_still_code() -> None:
    assert Role.CONFIG not in roles_about("where is the dependencies keyword implemented")


async def test_the_manifest_answers(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(
            t.SearchArgs(repoId="repo", query="where are the dependencies declared")
        )
        paths = [h.entry.path for h in answer.hits]
        assert paths and paths[0] == "pyproject.toml", paths
