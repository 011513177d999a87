"""A definition query naming a declaration in another case than the code's (`where is
multidict defined` for werkzeug's `MultiDict`) is answered as if written as declared: QA on
pallets/werkzeug ranked test.py's `_args: MultiDict[...]` first and the declaring file second,
with no `symbol:` reason. The real index, the keyword ladder, the MCP client."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/datastructures/structures.py": (
        '"""Dictionaries."""\n\n\n'
        "class MultiDict(dict):\n"
        '    """A dictionary holding several values per key."""\n\n'
        "    def getlist(self, key):\n        return self[key]\n"
    ),
    "src/test.py": (
        "from .datastructures.structures import MultiDict\n\n"
        "_args: MultiDict = MultiDict()\n"
        "_more: MultiDict = MultiDict()  # a multidict of form data\n"
    ),
}


async def test_a_name_in_another_case_finds_its_declaration(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = "where is multidict defined"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
    assert found["query"] == query  # the caller's words are echoed
    first = found["hits"][0]
    assert first["entry"]["path"] == "src/datastructures/structures.py"
    assert "symbol:datastructures.structures.MultiDict" in first["reasons"]
    assert first["startLine"] == 4  # at the class, not at a line holding the word
    assert "note" not in found  # the declaration was found: no "declares nothing" note
