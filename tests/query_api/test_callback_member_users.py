"""A method no file calls through a value may be passed as one, a callback: its users are
the files writing it as a member (query_api/retrieval/name_users.py). QA on
python-attrs/cattrs: `who calls _structure_call` placed no user, its uses being `handler ==
converter._structure_call` and `(str, self._structure_call)`, no call."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "pkg/converters.py": (
        "class BaseConverter:\n"
        "    def __init__(self):\n"
        "        self.hooks = [(str, self._structure_call), (int, self._structure_call)]\n\n"
        "    @staticmethod\n"
        "    def _structure_call(obj, cl):\n"
        "        return cl(obj)\n"
    ),
    "pkg/gen.py": (
        "def find_handler(converter, handler):\n"
        "    if handler == converter._structure_call:\n"
        "        return None\n"
        "    return handler\n"
    ),
    "pkg/calls.py": "def structure_once(obj):\n    return obj.structure()\n",
}


async def test_a_method_passed_as_a_value_has_its_users(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(
            t.SearchArgs(repoId="repo", query="who calls _structure_call")
        )
    users = [h.entry.path for h in answer.hits if "uses:_structure_call" in h.reasons]
    assert users[:1] == ["pkg/gen.py"], [(h.entry.path, h.reasons) for h in answer.hits]
    assert "pkg/calls.py" not in users
