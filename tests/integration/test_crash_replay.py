"""SIGKILL `repocontext replay` at random points: whether the next start resumes the partial
rebuild or replays again, the views and memory equal the uninterrupted run."""

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
from tests.conftest import child_env
from tests.integration import memory_writer as mw
from tests.integration.test_crash_resume import dead_letters, snapshot
from tests.integration.zygote import Zygote

FILES = 300
KILLS = 20
ENV = {"REPOCONTEXT_PROCESSOR_WORKERS": "0"}  # the kill lands on the one process doing it all


def make_corpus(root: Path) -> Path:
    rng = random.Random(11)
    words = [f"ident{n}" for n in range(300)] + ["parseConfig", "HttpClient", "utf8Writer"]
    for n in range(FILES):
        folder = root / f"pkg{n % 13}"
        folder.mkdir(parents=True, exist_ok=True)
        body = "\n".join(
            f"def fn_{n}_{line}({rng.choice(words)}): return {rng.choice(words)}"
            for line in range(rng.randint(5, 40))
        )
        (folder / f"module_{n}.py").write_text(body + "\n")
    return root


def state(data: Path) -> dict[str, Any]:
    """The views (files, content, ranked searches) and every memory row, minus wall clocks."""
    conn = sqlite3.connect(data / "views.db")
    try:
        rows = conn.execute("SELECT key, entry FROM memory ORDER BY key").fetchall()
    finally:
        conn.close()
    return {**snapshot(data), "memory": {key: json.loads(entry) for key, entry in rows}}


async def resume(data: Path) -> None:
    """A plain restart on the partial views: the pipeline picks up from their offsets."""
    settings = Settings(data_dir=data, embedder="none", processor_workers=0)
    async with EmbeddedApp(settings, watch=False) as app:
        await app.runtime.run_until_idle()


@pytest.mark.slow  # a crash loop: many SIGKILLs, each followed by a restart
def test_sigkill_during_replay_resumes_to_the_same_views_and_memory(tmp_path: Path) -> None:
    corpus = make_corpus(tmp_path / "corpus")
    data = tmp_path / "data"
    zygote = Zygote(child_env(data))
    try:

        def run(argv: list[str], name: str) -> Path:
            out = tmp_path / f"{name}.out"
            zygote.start(argv, out, tmp_path / f"{name}.err", ENV)
            assert zygote.wait() == 0, (tmp_path / f"{name}.err").read_text()[-2000:]
            return out

        run(["index", str(corpus)], "index")
        run(["memory-writer", str(data), "0"], "memory")
        replayed = json.loads(run(["replay"], "baseline").read_text())
        assert replayed["files"] == FILES
        seconds = float(replayed["seconds"])
        expected = state(data)
        assert len(expected["memory"]) == len(mw.expected_after(mw.OPS))

        rng = random.Random(20261201)
        kills = attempts = 0
        while kills < KILLS and attempts < 60:
            attempts += 1
            err = tmp_path / f"replay-{attempts}.err"
            pid = zygote.start(["replay"], tmp_path / f"replay-{attempts}.out", err, ENV)
            time.sleep(rng.uniform(0.0, seconds * 1.2))  # forked: no interpreter start-up
            with contextlib.suppress(ProcessLookupError):  # it may have finished
                os.kill(pid, signal.SIGKILL)
            if zygote.wait() != -signal.SIGKILL:
                continue
            kills += 1
            if rng.random() < 0.5:  # restart on the partial views, or leave it to the next replay
                asyncio.run(resume(data))
                assert state(data) == expected, f"resuming after kill {kills} diverged"
        run(["replay"], "final")
        assert state(data) == expected
        assert dead_letters(data) == 0
    finally:
        zygote.close()
    assert kills >= KILLS, f"only {kills} kills landed while replay ran"
