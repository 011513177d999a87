"""`what calls X` where only X's own file calls it (a nested function, a private helper)
puts the hits that use X before those that only share its words. QA on pallets/werkzeug:
`what calls execute` (nested in `WSGIRequestHandler.run_wsgi`, called twice there) led with
debug/__init__.py for `execute_command`, which never calls it; serving.py, pointed at both
calls, came second."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/pkg/__init__.py": "",
    "src/pkg/debug.py": (
        "class Debugged:\n"
        "    def execute_command(self, command: str) -> str:\n"
        '        """Execute a command in a console: execute it, then execute the next."""\n'
        "        return command\n\n"
        "    def execute_all(self, commands: list[str]) -> list[str]:\n"
        '        """Execute each command."""\n'
        "        return [self.execute_command(c) for c in commands]\n"
    ),
    "src/pkg/serving.py": (
        "def run_wsgi(app: object) -> object:\n"
        "    def execute(target: object) -> object:\n"
        "        return target\n\n"
        "    return execute(app)\n"
    ),
}


async def test_a_file_using_the_name_comes_before_one_sharing_its_words(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "what calls execute"}
        )
        paths = [hit["entry"]["path"] for hit in found["hits"]]
        assert paths[0] == "src/pkg/serving.py", found["hits"]
        assert "5: return execute(app)" in found["hits"][0]["snippet"], found["hits"][0]
