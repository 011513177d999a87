"""repocontext_changed scoped to a folder the agent deleted lists its files as removed, and a
file or a path that names nothing is told apart (QA on go-kratos/kratos): after deleting
contrib/registry/eureka, changed of that folder answered "path 'contrib/registry/eureka' is
not a directory", as for a typo, while its indexed files were exactly what was removed;
changed of a file and of a path naming nothing both said "is not a directory". Real app, real
MCP client session, real views."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, call_error
from tests.integration.memory_rig import memory_rig
from tests.integration.test_changed_workspace import write

pytestmark = pytest.mark.anyio


async def test_changed_of_a_deleted_folder_lists_its_files_as_removed(tmp_path: Path) -> None:
    repo = tmp_path / "ws" / "repo"
    write(repo)
    async with memory_rig(tmp_path, index=True) as (_app, session):
        shutil.rmtree(repo / "app")
        changed = await call(session, "repocontext_changed", {"repoId": "repo", "path": "app"})
        assert changed.get("removed") == ["app/untouched.py", "app/uses_legacy.py"], changed

        error = await call_error(
            session, "repocontext_changed", {"repoId": "repo", "path": "shop/orders.py"}
        )
        assert "is a file" in error and "shop" in error, error
        error = await call_error(session, "repocontext_changed", {"repoId": "repo", "path": "nope"})
        assert "does not exist" in error and "no indexed file" in error, error
