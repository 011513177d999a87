"""Disk full on the data directory: the indexer stops with one clear line naming the file it
could not write, every database passes SQLite's integrity check, and a rerun with room
completes to exactly what an uninterrupted run builds.

The child runs under RLIMIT_FSIZE with SIGXFSZ ignored, so its writes past the limit fail with
EFBIG as they would with ENOSPC. Keyword-only (embedder none): the in-process Qdrant
preallocates its WAL and would fail before any of our writes.
"""

from __future__ import annotations

import contextlib
import json
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.conftest import child_env, cli_command
from tests.integration.mcp_helpers import call, wait_indexed
from tests.integration.test_crash_replay import make_corpus
from tests.integration.test_crash_resume import dead_letters, snapshot

DATABASES = ("log.db", "views.db", "source-manifest.db")


def index(corpus: Path, data: Path, limit: int | None = None) -> subprocess.CompletedProcess[str]:
    return cli(data, limit, "index", str(corpus))


def cli(data: Path, limit: int | None, *args: str) -> subprocess.CompletedProcess[str]:
    def cap_file_size() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))  # type: ignore[arg-type]

    return subprocess.run(
        cli_command(*args),
        env={**child_env(data), "REPOCONTEXT_PROCESSOR_WORKERS": "0"},
        preexec_fn=cap_file_size if limit is not None else None,
        capture_output=True,
        text=True,
        timeout=300,
    )


def integrity(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object], Path]:
    root = tmp_path_factory.mktemp("disk-full")
    corpus = make_corpus(root / "corpus")
    data = root / "baseline"
    done = index(corpus, data)
    assert done.returncode == 0, done.stderr[-2000:]
    return corpus, snapshot(data), data


def assert_clear_failure(run: subprocess.CompletedProcess[str], data: Path) -> list[str]:
    """Exit non-zero with only one-line errors that name the file and say what to do."""
    assert run.returncode != 0, "the run must not claim success"
    assert "Traceback" not in run.stderr
    errors = [line for line in run.stderr.splitlines() if " ERROR " in line]
    assert errors, run.stderr[-2000:]
    assert all("is full or a file-size limit was reached" in line for line in errors), errors
    assert all(f"cannot write {data}/" in line for line in errors), errors
    for name in DATABASES:
        assert integrity(data / name) == "ok", f"{name} is damaged"
    return errors


@pytest.mark.slow  # fills a size-capped disk during index, replay and writes
@pytest.mark.parametrize("fraction", [0.25, 0.5])
def test_disk_full_is_a_clear_error_and_corrupts_nothing(
    baseline: tuple[Path, dict[str, object], Path], tmp_path: Path, fraction: float
) -> None:
    corpus, expected, done = baseline
    data = tmp_path / "data"
    largest = max((done / name).stat().st_size for name in ("log.db", "views.db"))
    full = index(corpus, data, limit=int(largest * fraction))
    assert_clear_failure(full, data)
    assert "full or a file-size limit" in str(json.loads(full.stdout)["error"])

    rerun = index(corpus, data)
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    assert snapshot(data) == expected
    assert dead_letters(data) == 0, "running out of space must never dead-letter a record"


@pytest.mark.slow
def test_disk_full_during_replay_stops_the_view_sink_cleanly(
    baseline: tuple[Path, dict[str, object], Path], tmp_path: Path
) -> None:
    """The log is complete and only the views grow: the view sink hits the limit, and must
    neither dead-letter nor skip a record; a plain restart resumes the partial views."""
    corpus, expected, done = baseline
    data = tmp_path / "data"
    shutil.copytree(done, data)
    limit = (data / "views.db").stat().st_size * 2 // 5
    errors = assert_clear_failure(cli(data, limit, "replay"), data)
    assert any(f"cannot write {data}/views.db" in line for line in errors), errors

    rerun = index(corpus, data)
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    assert snapshot(data) == expected
    assert dead_letters(data) == 0


LIMITED_CLI = (
    "import resource, runpy, sys; "
    "resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), int(sys.argv[1]))); "
    "sys.argv = ['repocontext', *sys.argv[2:]]; "
    "runpy.run_module('repocontext.cli', run_name='__main__')"
)  # CPython ignores SIGXFSZ itself, so writes past the limit fail with EFBIG


@contextlib.asynccontextmanager
async def mcp_session(data: Path, repo: Path, limit: int | None) -> AsyncIterator[ClientSession]:
    args = ["-c", LIMITED_CLI, str(limit)] if limit is not None else ["-m", "repocontext.cli"]
    env = {**child_env(data), "REPOCONTEXT_PROCESSOR_WORKERS": "0"}
    env["REPOCONTEXT_MEMORY_WRITE_TIMEOUT_S"] = "3"
    params = StdioServerParameters(
        command=sys.executable, args=[*args, "mcp", str(repo), "--repo-id", "repo"], env=env
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@pytest.mark.slow
@pytest.mark.anyio
async def test_disk_full_during_memory_writes_is_a_clear_tool_error(
    sample_repo: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    async with mcp_session(data, sample_repo, None) as s:
        await wait_indexed(s, "repo")
    limit = max(p.stat().st_size for p in data.iterdir() if p.is_file()) + 256 * 1024
    body = "ledger " * 2500  # ~17 KB: the write-ahead log reaches the limit within ~100 writes
    acked: list[str] = []
    refusal = ""
    async with mcp_session(data, sample_repo, limit) as s:
        for n in range(200):
            args = {"repoId": "repo", "topic": "bulk", "id": f"n{n}", "body": f"{n} {body}"}
            result = await s.call_tool("repocontext_remember", args)
            if result.isError:
                refusal = " ".join(getattr(b, "text", "") for b in result.content)
                break
            acked.append(f"repo/repo/mem/bulk/n{n}")
    assert refusal, "the size limit was never reached"
    assert "Traceback" not in refusal and "internal error" not in refusal, refusal
    # Either the command could not be appended (nothing applied) or it was appended and
    # waits for room (it may still apply): both say so; neither is a crash.
    assert "disk is full" in refusal or "may still apply" in refusal, refusal
    for name in DATABASES:
        assert integrity(data / name) == "ok", f"{name} is damaged"

    async with mcp_session(data, sample_repo, None) as s:
        for key in acked:
            entry = await call(s, "repocontext_recall", {"key": key})
            assert entry["exists"] and entry["fields"]["body"].startswith(key.rsplit("n", 1)[1])
        listed = await call(s, "repocontext_list_topics", {"repoId": "repo"})
        count = {t["topic"]: t["count"] for t in listed["topics"]}["bulk"]
        assert count in (len(acked), len(acked) + 1)  # + the refused write, if it was appended
