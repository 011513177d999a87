"""What add_repo derives from its `path` (spec: the repoId defaults to the path's final
segment), and what it says of a path that is no directory. A QA pass: a symlink's path was
registered under its target's name (re-walking that repository), and a missing path was
called "not a directory"."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from query_api.errors import ToolInputError
from repocontext.app import EmbeddedApp
from schemas.tools import AddRepoArgs
from tests.integration.memory_rig import rig_settings

pytestmark = pytest.mark.anyio


async def test_the_repo_id_is_the_final_segment_of_the_path_as_written(tmp_path: Path) -> None:
    settings = rig_settings(tmp_path)
    root = settings.workspace_root
    assert root is not None
    (root / "real").mkdir(parents=True)
    (root / "real" / "a.py").write_text("A = 1\n")
    (root / "alias").symlink_to(root / "real")
    async with EmbeddedApp(settings, watch=False) as app:
        by_link = await app.service.add_repo(AddRepoArgs(path="alias/"), launch=False)
        assert by_link.repoId == "alias"
        assert app.service.ingest.registrations["alias"].root == str((root / "real").resolve())
        here = await app.service.add_repo(AddRepoArgs(path=str(root / "real" / ".")), launch=False)
        assert here.repoId == "real"  # `.` names nothing: the directory's own name


async def test_a_missing_path_and_a_file_are_told_apart(tmp_path: Path) -> None:
    settings = rig_settings(tmp_path)
    root = settings.workspace_root
    assert root is not None
    root.mkdir(parents=True, exist_ok=True)
    (root / "notes.txt").write_text("not a repository\n")
    async with EmbeddedApp(settings, watch=False) as app:
        with pytest.raises(ToolInputError, match="'no/such/dir' does not exist"):
            await app.service.add_repo(AddRepoArgs(path="no/such/dir"))
        with pytest.raises(ToolInputError, match=r"'notes\.txt' is not a directory"):
            await app.service.add_repo(AddRepoArgs(path="notes.txt"))
        subprocess.run(["git", "init", "-q", "--bare", str(root / "x.git")], check=True)
        with pytest.raises(ToolInputError, match="is a bare git repository"):
            await app.service.add_repo(AddRepoArgs(path="x.git"))
