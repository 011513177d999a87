"""A file declaring a name of its own is still a user of another file's declaration of that
name. QA on pallets/werkzeug: `what calls get_host` (declared in sansio/utils.py, wsgi.py and
as the method `MapAdapter.get_host` in routing/map.py) marked neither routing/map.py, whose
`bind_to_environ` calls the `get_host` it imports from wsgi.py, nor wsgi.py, which calls
sansio's: every file declaring the name was left out of the users of every declaration."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/pkg/__init__.py": "",
    "src/pkg/sansio.py": (
        "def fetch_host(scheme: str, header: str) -> str:\n    return header or scheme\n"
    ),
    "src/pkg/wsgi.py": (
        "from . import sansio\n\n\n"
        "def fetch_host(environ: dict[str, str]) -> str:\n"
        "    return sansio.fetch_host(environ['scheme'], environ['host'])\n"
    ),
    "src/pkg/routing.py": (
        "from .wsgi import fetch_host\n\n\n"
        "class Adapter:\n"
        "    def fetch_host(self, part: str) -> str:\n        return part\n\n\n"
        "def bind(environ: dict[str, str]) -> str:\n    return fetch_host(environ).lower()\n"
    ),
    "src/pkg/request.py": (
        "from .sansio import fetch_host\n\n\n"
        "def host_of(scheme: str, header: str) -> str:\n    return fetch_host(scheme, header)\n"
    ),
}


async def test_a_file_declaring_the_name_still_uses_another_declaration(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "what calls fetch_host"}
        )
        users = {
            hit["entry"]["path"] for hit in found["hits"] if "uses:fetch_host" in hit["reasons"]
        }
        assert users == {"src/pkg/request.py", "src/pkg/routing.py", "src/pkg/wsgi.py"}, found[
            "hits"
        ]
