"""repocontext_changed on a workspace source, exactly: no watcher runs, so what changed on
disk after the index is all still unindexed (the MCP test with a live watcher can only
check subsets). Real app, real MCP client session, real views."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from mcp.shared.memory import create_connected_server_and_client_session

from schemas.symbols import MAX_CHANGED_PATHS
from tests.integration.mcp_helpers import call, call_error
from tests.integration.memory_rig import memory_rig, watched_rig

pytestmark = pytest.mark.anyio

FILES = {
    "shop/__init__.py": "",
    "shop/orders.py": "class OrderService:\n    def place(self):\n        return 1\n",
    "shop/checkout.py": (
        "from shop.orders import OrderService\n\ndef checkout():\n    return OrderService()\n"
    ),
    "shop/legacy.py": "def old():\n    return 2\n",
    "app/uses_legacy.py": "from shop.legacy import old\n\ndef run():\n    return old()\n",
    "app/untouched.py": "def alone():\n    return 3\n",
}


def write(root: Path) -> None:
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


async def test_changed_reports_exactly_what_differs_from_the_index(tmp_path: Path) -> None:
    repo = tmp_path / "ws" / "repo"
    write(repo)
    async with memory_rig(tmp_path, index=True) as (_app, session):
        args = {"repoId": "repo", "path": str(repo)}
        nothing = await call(session, "repocontext_changed", args)
        assert (
            nothing.get("added", []),
            nothing.get("updated", []),
            nothing.get("removed", []),
        ) == ([], [], [])
        assert nothing.get("dependents", []) == []
        assert "note" not in nothing  # not watched: what differs is all still unindexed

        (repo / "shop/orders.py").write_text(FILES["shop/orders.py"] + "# edited\n")
        (repo / "shop/new.py").write_text("X = 1\n")
        (repo / "shop/legacy.py").unlink()
        later = os.stat(repo / "app/untouched.py").st_mtime_ns + 5_000_000_000
        os.utime(repo / "app/untouched.py", ns=(later, later))  # touched, same bytes

        changed = await call(session, "repocontext_changed", args)
        assert changed["added"] == ["shop/new.py"]
        assert changed["updated"] == ["shop/orders.py"]
        assert changed["removed"] == ["shop/legacy.py"]
        assert changed["dependents"] == [
            # app/ is no package: its module is imported as `uses_legacy`
            {"symbol": "uses_legacy.run", "path": "app/uses_legacy.py"},
            {"symbol": "shop.checkout.checkout", "path": "shop/checkout.py"},
        ]

        scoped = await call(session, "repocontext_changed", {**args, "path": str(repo / "app")})
        assert (scoped.get("added", []), scoped.get("updated", []), scoped.get("removed", [])) == (
            [],
            [],
            [],
        )
        # scoped to app/, nothing there changed, so nothing there has changed dependencies
        assert scoped.get("dependents", []) == []

        # a relative path is relative to the repository's root (not the workspace's), as for
        # every path-taking tool; `..` inside it is resolved
        for spelling in ("app", "./app/", "shop/../app"):
            same = await call(session, "repocontext_changed", {**args, "path": spelling})
            fields = ("added", "updated", "removed", "dependents")
            assert [same.get(f) for f in fields] == [scoped.get(f) for f in fields], spelling
        whole = await call(session, "repocontext_changed", {**args, "path": "."})
        assert whole["added"] == ["shop/new.py"] and whole["removed"] == ["shop/legacy.py"]
        # inside the workspace but outside the repository: refused, naming the indexed root
        for escaping in ("..", "../repo-other", str(tmp_path / "ws")):
            error = await call_error(session, "repocontext_changed", {**args, "path": escaping})
            assert "leaves the repository" in error
            assert f"outside the indexed root {repo.resolve()}" in error


async def test_a_large_change_is_listed_in_part_and_counted(tmp_path: Path) -> None:
    """A branch switch or a generated tree changes thousands of files: one answer lists at
    most MAX_CHANGED_PATHS of a list, says how many there are, and how to see the rest (a
    narrower `path`, which lists them all)."""
    repo = tmp_path / "ws" / "repo"
    write(repo)
    async with memory_rig(tmp_path, index=True) as (_app, session):
        many = MAX_CHANGED_PATHS + 20
        for i in range(many):
            (repo / "gen" / f"part{i // 100}").mkdir(parents=True, exist_ok=True)
            (repo / "gen" / f"part{i // 100}" / f"m{i:04d}.py").write_text(f"X = {i}\n")
        whole = await call(session, "repocontext_changed", {"repoId": "repo", "path": str(repo)})
        assert len(whole["added"]) == MAX_CHANGED_PATHS and whole["addedCount"] == many
        assert whole["added"] == sorted(whole["added"])
        assert f"added {MAX_CHANGED_PATHS} of {many}" in whole["note"] and "`path`" in whole["note"]
        assert "updatedCount" not in whole and "removedCount" not in whole
        part = await call(
            session, "repocontext_changed", {"repoId": "repo", "path": str(repo / "gen/part3")}
        )
        assert len(part["added"]) == 20 and "addedCount" not in part and "note" not in part


async def test_nothing_changed_in_a_watched_repository_says_why(tmp_path: Path) -> None:
    """A watched repository's edits are indexed as they are saved, so `changed` lists only
    what the watcher has not indexed yet: an empty answer says so (a QA pass on got edited
    three files and read "no file added, updated or removed since it was indexed")."""
    async with watched_rig(tmp_path) as (app, _):
        async with create_connected_server_and_client_session(app.mcp_server()) as session:
            nothing = await call(session, "repocontext_changed", {"repoId": "repo", "path": "."})
        assert not (nothing.get("added") or nothing.get("updated") or nothing.get("removed"))
        assert nothing["note"].startswith("repo is watched: files saved on disk are indexed")
