"""Attaching to a data directory's owner that dies as we connect (repocontext/agent_socket.py):
its listening socket can outlive it by an instant, so the connection is accepted and then
reset. That is "nobody to attach to" (the caller waits for the lock), not an error: an `mcp`
taking over from a SIGKILLed owner failed with `Connection reset by peer` in a QA run."""

from __future__ import annotations

import select
import socket
import threading
from pathlib import Path
from typing import Any

import pytest

from query_api.settings import Settings
from repocontext.agent_socket import AgentListener, Hello, attach, socket_path
from repocontext.app import EmbeddedApp
from tests.conftest import write_sample_repo

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_an_owner_resetting_the_connection_is_nobody_to_attach_to(tmp_path: Path) -> None:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(socket_path(tmp_path)))
    listener.listen()

    def die_on_hello() -> None:  # the hello arrives, unread: closing resets the connection
        conn, _ = listener.accept()
        select.select([conn], [], [], 30)
        conn.close()

    dying = threading.Thread(target=die_on_hello)
    dying.start()
    try:
        assert await attach(tmp_path, Hello("mcp")) is None
    finally:
        dying.join(timeout=30)
        listener.close()


async def test_an_index_through_the_owner_says_how_far_it_got(tmp_path: Path) -> None:
    """`repocontext index` while a server owns the data directory: the owner indexes, and
    says files read, then records processed, until its answer."""
    repo = write_sample_repo(tmp_path / "ws" / "sample")
    settings = Settings(data_dir=tmp_path / "data", workspace_root=tmp_path / "ws", embedder="none")
    updates: list[dict[str, Any]] = []
    async with EmbeddedApp(settings) as app:
        await app.start(vectors=False)
        async with AgentListener(app):
            hello = Hello("index", str(repo), "sample", progress=True)
            link = await attach(settings.data_dir, hello, updates.append)
            assert link is not None
            link.writer.close()
    assert link.answer["job"]["status"] == "Completed"
    stages = [u["stage"] for u in updates]
    assert set(stages) <= {"reading files", "processing records"}, updates
    assert stages == sorted(stages, key=["reading files", "processing records"].index)
    last = updates[-1]
    assert last["stage"] == "processing records" and last["done"] == last["total"] > 0, updates


async def test_a_malformed_principal_is_refused_before_anything_is_registered(
    tmp_path: Path,
) -> None:
    """An attached `serve` names the principal its HTTP session authenticated as; a hello
    whose principal is not {name, grants of levels} is refused, and PATH is not registered."""
    from query_api.errors import ServiceUnavailable

    repo = write_sample_repo(tmp_path / "ws" / "sample")
    settings = Settings(data_dir=tmp_path / "data", workspace_root=tmp_path / "ws", embedder="none")
    async with EmbeddedApp(settings) as app:
        await app.start(vectors=False)
        async with AgentListener(app):
            for bad in ({"name": "reader"}, {"name": "r", "grants": {"sample": "read"}}):
                hello = Hello("mcp", str(repo), "sample", principal=bad)
                with pytest.raises(ServiceUnavailable, match="principal"):
                    await attach(settings.data_dir, hello)
            assert app.views.list_repos() == []
            ready = await attach(settings.data_dir, Hello("ready"))
            assert ready is not None
            assert ready.answer["status"] == 200, ready.answer
            ready.writer.close()


async def test_an_index_through_the_owner_runs_a_pass_of_its_own(tmp_path: Path) -> None:
    """A QA pass: `repocontext index` of a repository the owner already had printed the
    counts of the owner's start-up pass (files added: every file, again and again); now the
    owner runs a fresh pass and the answer counts what it found."""
    repo = write_sample_repo(tmp_path / "ws" / "sample")
    settings = Settings(data_dir=tmp_path / "data", workspace_root=tmp_path / "ws", embedder="none")
    answers: list[dict[str, Any]] = []
    async with EmbeddedApp(settings, watch=False) as app:  # no watch: the pass must see them
        await app.start(vectors=False)
        async with AgentListener(app):
            for step in range(2):
                if step == 1:
                    (repo / "src" / "added_one.py").write_text("def one():\n    return 1\n")
                    (repo / "src" / "added_two.py").write_text("def two():\n    return 2\n")
                    next(p for p in sorted(repo.rglob("*.py")) if "added" not in p.name).unlink()
                link = await attach(settings.data_dir, Hello("index", str(repo), "sample"))
                assert link is not None
                link.writer.close()
                answers.append(link.answer)
    first, second = (a["job"] for a in answers)
    assert first["status"] == second["status"] == "Completed"
    assert first["filesAdded"] == answers[0]["filesIndexed"] > 2
    assert (second["filesAdded"], second["filesRemoved"]) == (2, 1), second
    assert answers[1]["filesIndexed"] == answers[0]["filesIndexed"] + 1
