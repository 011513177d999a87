"""SIGKILL during memory writes: after a restart every acknowledged write is there exactly once,
the views equal the log, and a finished sequence equals an uninterrupted run."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from repocontext.memory_transfer import current_entries
from tests.conftest import child_env
from tests.integration import memory_writer as mw
from tests.integration.zygote import Zygote, wait_for_text

KILLS = 20


def content(entry_json: str) -> dict[str, Any]:
    entry = json.loads(entry_json)
    fields = {k: v for k, v in entry["fields"].items() if k != "createdAt"}
    return {"fields": fields, "tags": entry["tags"], "links": entry["links"]}


async def restart(data_dir: Path) -> dict[str, dict[str, Any]]:
    """Open the data dir as a restarted server would, let the pipeline settle, and return the
    memory views, after checking them against memory.v1 and the exactly-once bookkeeping."""
    settings = Settings(data_dir=data_dir, embedder="none", processor_workers=0)
    async with EmbeddedApp(settings, watch=False) as app:
        await app.runtime.run_until_idle()
        in_log = {e.key: content(e.model_dump_json()) for e in await current_entries(app.log, None)}
    views = sqlite3.connect(data_dir / "views.db")
    log = sqlite3.connect(data_dir / "log.db")
    try:
        rows = views.execute("SELECT key, entry FROM memory ORDER BY key").fetchall()
        commands = log.execute(
            "SELECT count(*) FROM records WHERE topic = 'repocontext.memory.commands.v1'"
        ).fetchone()[0]
        results = log.execute(
            "SELECT count(*), count(DISTINCT key) FROM records"
            " WHERE topic = 'repocontext.memory.results.v1'"
        ).fetchone()
        dead = log.execute(
            "SELECT count(*) FROM records WHERE topic = 'repocontext.deadletter.v1'"
        ).fetchone()[0]
    finally:
        views.close()
        log.close()
    in_views = {key: content(entry) for key, entry in rows}
    assert in_views == in_log, "the memory views diverged from memory.v1"
    assert results == (commands, commands), "a command was applied twice or not at all"
    assert dead == 0
    return in_views


@pytest.mark.slow  # a crash loop: many SIGKILLs, each followed by a restart
def test_sigkill_during_memory_writes_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline"
    asyncio.run(mw.run(baseline, 0))  # the uninterrupted run, same code path in-process
    expected = asyncio.run(restart(baseline))
    assert expected == mw.expected_after(mw.OPS)

    rng = random.Random(20261130)
    zygote = Zygote(child_env(tmp_path))
    kills = sequences = 0
    try:
        while kills < KILLS and sequences < 10:
            sequences += 1
            data = tmp_path / f"crashed-{sequences}"
            acked = 0
            while acked < mw.OPS:
                acks = tmp_path / f"acks-{sequences}-{acked}-{kills}"
                pid = zygote.start(["memory-writer", str(data), str(acked)], acks, acks)
                writing = False
                if rng.random() < 0.2:  # sometimes during start-up, before any write
                    time.sleep(rng.uniform(0.0, 0.3))
                elif wait_for_text(acks, "ack ", pid):
                    writing = True
                    time.sleep(rng.uniform(0.0, 1.0))
                with contextlib.suppress(ProcessLookupError):  # it may have finished
                    os.kill(pid, signal.SIGKILL)
                if zygote.wait() == -signal.SIGKILL:
                    kills += writing  # the kills that count landed among the writes
                done = [int(x.split()[1]) for x in acks.read_text().split("\n") if x[:4] == "ack "]
                acked = max(done, default=acked - 1) + 1
                state = asyncio.run(restart(data))
                # Every acknowledged op is applied; the op in flight at the kill may be too.
                allowed = [mw.expected_after(acked), mw.expected_after(min(acked + 1, mw.OPS))]
                assert state in allowed, f"sequence {sequences}: state after {acked} acks diverged"
            assert asyncio.run(restart(data)) == expected, f"sequence {sequences} diverged"
    finally:
        zygote.close()
    assert kills >= KILLS, f"only {kills} kills landed while the writer wrote"
