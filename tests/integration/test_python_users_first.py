"""A query for the users of a Python function marks only the files naming it: a file that
imports other names of the declaring module uses the module, not the function. QA on
pallets/jinja: `what calls select_autoescape` (utils.py; only __init__.py re-exports it)
marked runtime.py, environment.py, nodes.py and ext.py `uses:select_autoescape` above it,
each for importing `missing` or `concat` from utils.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/pkg/__init__.py": "from .utils import pick_escaping as pick_escaping\n",
    "src/pkg/utils.py": (
        "def pick_escaping(names: list[str]) -> bool:\n    return bool(names)\n\n\n"
        "def concat_parts(parts: list[str]) -> str:\n    return ''.join(parts)\n"
    ),
    "src/pkg/app.py": (
        "from .utils import pick_escaping\n\n\n"
        "def configure(names: list[str]) -> bool:\n    return pick_escaping(names)\n"
    ),
    # imports the module for another of its names: no user of pick_escaping
    "src/pkg/runtime.py": (
        "from .utils import concat_parts\n\n\n"
        "def render(parts: list[str]) -> str:\n    return concat_parts(parts)\n"
    ),
}


async def test_a_module_importer_is_no_user_of_each_of_its_functions(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "what calls pick_escaping"}
        )
        users = {
            hit["entry"]["path"] for hit in found["hits"] if "uses:pick_escaping" in hit["reasons"]
        }
        assert users == {"src/pkg/app.py", "src/pkg/__init__.py"}, found["hits"]
        related = await call(
            s, "repocontext_related", {"repoId": "repo", "path": "src/pkg/utils.py"}
        )
        # related asks about the file: importing it is depending on it
        dependents = {d["path"] for d in related["dependents"]}
        assert "src/pkg/runtime.py" in dependents, related


@pytest.mark.parametrize("query", ["what imports pkg.utils", "who imports utils"])
async def test_the_users_of_a_module_are_its_importers(tmp_path: Path, query: str) -> None:
    """QA on pallets/jinja: `what imports jinja2.sandbox` and `who imports nativetypes` named
    no declaration (a module is none), so no importer was placed first: sandbox.py itself
    led, then files saying `sandbox` or `import`."""
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        users = [hit["entry"]["path"] for hit in found["hits"] if "uses:utils" in hit["reasons"]]
        assert set(users) == {
            "src/pkg/__init__.py",
            "src/pkg/app.py",
            "src/pkg/runtime.py",
        }, found["hits"]
        assert found["hits"][0]["entry"]["path"] in users
