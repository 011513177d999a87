"""A lost or corrupt event log is noticed: not ready with the reason, writes refused, and a
replay exports the memory only the views still hold before dropping them."""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from mcp.shared.memory import create_connected_server_and_client_session

from repocontext.app import EmbeddedApp
from repocontext.memory_transfer import read_export
from tests.conftest import child_env, cli_command
from tests.integration.mcp_helpers import call, call_error
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio

NOTE = {"repoId": "repo", "topic": "decisions", "id": "keep-me", "title": "t", "body": "only copy"}


def drop_sidecars(log_db: Path) -> None:
    for suffix in ("-wal", "-shm"):
        Path(str(log_db) + suffix).unlink(missing_ok=True)


async def health_and_write(tmp_path: Path) -> tuple[dict[str, Any], str, list[str]]:
    """Restart on the damaged log as `serve` does (resume the registered repositories)."""
    async with EmbeddedApp(rig_settings(tmp_path), watch=False) as app:
        await app.start()
        async with create_connected_server_and_client_session(app.mcp_server()) as session:
            health = await call(session, "repocontext_health", {})
            refused = await call_error(session, "repocontext_remember", {**NOTE, "id": "new"})
            return health, refused, app.service.not_ready_reasons()


async def test_truncated_log_with_views_intact(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (_, session):
        await call(session, "repocontext_remember", NOTE)
    log_db = tmp_path / "data" / "log.db"
    os.truncate(log_db, 0)  # `truncate -s 0 log.db`
    drop_sidecars(log_db)

    health, refused, reasons = await health_and_write(tmp_path)
    assert health["retrievalReady"] is False
    assert "ahead of the event log" in health["status"]
    assert "refused" in refused and "ahead of the event log" in refused
    assert reasons and "ahead of the event log" in reasons[0]

    replay = subprocess.run(
        cli_command("replay"),
        env=child_env(tmp_path / "data"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert replay.returncode == 0, replay.stderr
    rescued = json.loads(replay.stdout)["memoryRescued"]
    assert rescued["entries"] == 1 and rescued["missingFromLog"] == 1
    assert [e.id for e in read_export(Path(rescued["file"]))] == ["keep-me"]
    assert Path(rescued["file"]).parent == tmp_path / "data"


async def test_random_bytes_in_the_log(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (_, session):
        await call(session, "repocontext_remember", NOTE)
    log_db = tmp_path / "data" / "log.db"
    drop_sidecars(log_db)  # checkpointed at close; the damage goes into the main file
    size = log_db.stat().st_size
    noise = random.Random(18).randbytes(size // 2)
    with open(log_db, "r+b") as handle:  # everything after the first half, page 1 intact
        handle.seek(size - len(noise))
        handle.write(noise)

    health, refused, reasons = await health_and_write(tmp_path)
    assert health["retrievalReady"] is False
    assert "integrity check" in health["status"] or "corrupt" in health["status"]
    assert "refused" in refused
    assert reasons
