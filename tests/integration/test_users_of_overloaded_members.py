"""The users of a qualified method with `@overload` stubs are found: the views store each of
its declarations with its parameter types (`MultiDict.getlist(self,str)`), which a query's
`MultiDict.getlist` must match without them. QA on pallets/werkzeug: `callers of
MultiDict.getlist` placed no user (declarations_named found no declaration, so the query was
taken for a module's importers, of which there are none), and its first hit was the
declaration itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/pkg/__init__.py": "",
    "src/pkg/structures.py": (
        "import typing as t\n\n\nclass MultiDict(dict):\n"
        "    @t.overload\n    def getlist(self, key: str) -> list[str]: ...\n"
        "    @t.overload\n    def getlist(self, key: str, type: int) -> list[int]: ...\n"
        "    def getlist(self, key, type=None):\n        return []\n"
    ),
    "src/pkg/headers.py": (
        "class Headers:\n    def getlist(self, key: str) -> list[str]:\n        return []\n"
    ),
    "tests/test_structures.py": (
        "from pkg import structures as ds\n\n\ndef test_getlist() -> None:\n"
        "    md = ds.MultiDict()\n    assert md.getlist('a') == []\n"
    ),
}


async def test_the_users_of_an_overloaded_method_are_found(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query in ("callers of MultiDict.getlist", "what calls MultiDict.getlist"):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            first = found["hits"][0]
            assert first["entry"]["path"] == "tests/test_structures.py", (query, found["hits"])
            assert "uses:getlist" in first["reasons"], (query, first)
