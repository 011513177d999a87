"""`repocontext_changed` for a git-sourced repository, end to end: a local bare repository
(file:// URL, no network), the real git poller (`repocontext git-source --once`) writing the
SQLite log, and the real MCP server over stdio serving that log. Also covers Python relative
imports resolved to repository modules (the dependents of a changed file)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import child_env, cli_command
from tests.integration.mcp_helpers import (
    call,
    call_error,
    stdio_session,
    wait_caught_up,
    wait_for,
)

pytestmark = pytest.mark.anyio

ORDERS = """class OrderService:
    def place(self, order):
        return order
"""
CHECKOUT = """from .orders import OrderService


def checkout(cart):
    return OrderService().place(cart)
"""
LEGACY = "def old():\n    return 0\n"


def git(cwd: Path, *args: str) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@x", GIT_COMMITTER_NAME="t")
    env["GIT_COMMITTER_EMAIL"] = "t@x"
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True
    ).stdout.strip()


def commit(work: Path, bare: Path, files: dict[str, str | None], message: str) -> str:
    for rel, text in files.items():
        path = work / rel
        if text is None:
            path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    git(work, "add", "-A")
    git(work, "commit", "-qm", message)
    git(work, "push", "-q", str(bare), "main")
    return git(work, "rev-parse", "HEAD")


@pytest.mark.slow  # git history, git-source and a server
async def test_changed_diffs_the_indexed_commit_against_the_refs_head(tmp_path: Path) -> None:
    bare, work, data = tmp_path / "remote.git", tmp_path / "work", tmp_path / "data"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(work)], check=True)
    first = commit(
        work,
        bare,
        {
            "shop/__init__.py": "",
            "shop/orders.py": ORDERS,
            "shop/checkout.py": CHECKOUT,
            "shop/legacy.py": LEGACY,
            "docs/guide.md": "# guide\n",
        },
        "one",
    )
    poll = ["git-source", f"file://{bare}", "--repo-id", "shop", "--ref", "main", "--once"]
    subprocess.run(cli_command(*poll), env=child_env(data), check=True, capture_output=True)
    workspace = tmp_path / "ws"  # `changed` is advertised only with a workspace root
    workspace.mkdir()

    async with stdio_session(data, str(workspace)) as session:

        async def changed(path: str) -> dict[str, Any]:
            return await call(session, "repocontext_changed", {"repoId": "shop", "path": path})

        async def indexed() -> bool:
            got = await call(
                session, "repocontext_outline", {"repoId": "shop", "path": "shop/checkout.py"}
            )
            return bool(got.get("symbols"))

        await wait_for(indexed, what="the git repository's symbols")
        await wait_caught_up(session, "shop", "shop/orders.py")
        related = await call(
            session, "repocontext_related", {"repoId": "shop", "path": "shop/orders.py"}
        )
        # `from .orders import OrderService` in shop/checkout.py names shop.orders
        assert {(d["path"], d["symbol"]) for d in related["dependents"]} == {
            ("shop/checkout.py", "shop.checkout.checkout")
        }
        checkout = await call(
            session, "repocontext_related", {"repoId": "shop", "path": "shop/checkout.py"}
        )
        assert checkout["imports"] == ["shop.orders"]
        # a QA pass: index_status answered None ("add_repo indexes one", which refuses a
        # git-sourced id) and refresh "unknown repository"
        status = await call(session, "repocontext_index_status", {"repoId": "shop"})
        assert (status["status"], status["phase"]) == ("Completed", "Done"), status
        assert status["completedAt"] and status["filesScanned"] >= 4, status
        refused = await call_error(session, "repocontext_refresh", {"repoId": "shop"})
        assert "is git-sourced" in refused and "unknown" not in refused, refused

        nothing = await changed(".")
        assert (
            nothing.get("added", []),
            nothing.get("updated", []),
            nothing.get("removed", []),
        ) == ([], [], [])
        assert nothing["indexedCommit"] == nothing["headCommit"] == first

        # upstream moves on; the index has not seen it (no poll since)
        second = commit(
            work,
            bare,
            {
                "shop/orders.py": ORDERS + "\n\ndef extra():\n    return 2\n",
                "shop/new.py": "X = 1\n",
                "shop/legacy.py": None,
                "docs/guide.md": "# guide\n\nmore\n",
            },
            "two",
        )
        (work / "logo.bin").write_bytes(b"\x00\x01binary")  # binaries are never indexed
        third = commit(work, bare, {}, "three")
        got = await changed(".")
        assert got["indexedCommit"] == first and got["headCommit"] == third != second
        assert got["added"] == ["shop/new.py"]
        assert got["updated"] == ["docs/guide.md", "shop/orders.py"]
        assert got["removed"] == ["shop/legacy.py"]
        assert {(d["path"], d["symbol"]) for d in got["dependents"]} == {
            ("shop/checkout.py", "shop.checkout.checkout")
        }

        scoped = await changed("docs")
        assert (scoped.get("added", []), scoped.get("updated", []), scoped.get("removed", [])) == (
            [],
            ["docs/guide.md"],
            [],
        )
        for bad in ("..", "/etc", "shop/../.."):
            error = await call_error(
                session, "repocontext_changed", {"repoId": "shop", "path": bad}
            )
            assert "give a repo-relative path" in error
