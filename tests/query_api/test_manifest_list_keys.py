"""A question for a manifest's list points pyproject.toml at the key setting it, where no
table is named for it (query_api/retrieval/manifest_keys.py). QA on python-attrs/cattrs:
`where is the python version support declared` pointed pyproject.toml at `[tool.ruff.
per-file-target-version]` (its `version`), not at `requires-python = ">=3.10"`, and `which
dependencies does cattrs have` at `[project.optional-dependencies]`, not at the `[project]`
table's `dependencies = [...]`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.config_sections import section_naming
from query_api.retrieval.manifest_keys import list_naming
from schemas import tools as t
from tests.ingested import indexed_app

PYPROJECT = """[dependency-groups]
test = [
    "pytest>=8.4.1",
]

[tool.hatch.envs.default]
dependencies = ["coverage"]

[project]
name = "shop"
dependencies = [
    "attrs>=25.4.0",
    "typing-extensions>=4.14.0",
]
requires-python = ">=3.10"

[project.optional-dependencies]
ujson = [
    "ujson>=5.10.0",
]

[tool.ruff.per-file-target-version]
"*_695.py" = "py312"
"""
POETRY = """[tool.poetry.dependencies]
python = "^3.10"

[tool.poetry.dev-dependencies]
pytest = "^8"
"""
CARGO = '[package]\nname = "bar"\nrust-version = "1.85"\n\n[dependencies]\nserde = "1"\n'


def test_the_key_of_a_top_level_table_names_the_list() -> None:
    lines = PYPROJECT.split("\n")
    assert list_naming(lines, "requires-python") == (15, 15)
    assert list_naming(lines, "dependencies") == (11, 14)  # not the hatch env's, line 7


def test_a_table_named_for_the_list_comes_before_a_key() -> None:
    lines = CARGO.split("\n")
    assert list_naming(lines, "dependencies") == (5, 6)
    assert list_naming(lines, "rust-version") == (3, 3)
    assert list_naming(lines, "features") is None


@pytest.mark.anyio
async def test_pyproject_is_pointed_at_the_list_asked_for(tmp_path: Path) -> None:
    files = {"pyproject.toml": PYPROJECT, "src/shop/app.py": "def run():\n    return 1\n"}
    asked = {
        "where is the python version support declared": 15,
        "which python versions are supported": 15,
        "which dependencies does shop have": 11,
    }
    async with indexed_app(tmp_path, files) as app:
        for query, line in asked.items():
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            manifest = next(h for h in answer.hits if h.entry.path == "pyproject.toml")
            assert manifest.startLine == line, (query, manifest)


def test_a_table_naming_another_word_of_the_question_stays_its_answer() -> None:
    """`the dev dependencies` asks for Poetry's `[tool.poetry.dev-dependencies]`, not for the
    `[tool.poetry.dependencies]` table the list's name alone would pick."""
    poetry = POETRY.split("\n")
    assert section_naming(poetry, {"dev", "dependencies"}) == (4, 5)
    assert section_naming(poetry, {"dependencies"}) == (1, 2)
