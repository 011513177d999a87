"""The CLI end to end: index, restart fast path, search, replay, topics, status."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import child_env, cli_command


def run(data_dir: Path, *args: str) -> Any:
    proc = subprocess.run(
        cli_command(*args), env=child_env(data_dir), capture_output=True, text=True, timeout=180
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def test_index_and_search_print_no_nulls(sample_repo: Path, tmp_path: Path) -> None:
    """QA: `index` printed "unreadablePaths": null, "error": null ...; `search` every null of
    the answer model ("note", "startLine" of memory hits, "vectorId" ...)."""
    data = tmp_path / "data"
    indexed = run(data, "index", str(sample_repo))
    found = run(data, "search", str(sample_repo), "InvoiceCalculator")
    assert found["hits"] and indexed["status"] == "Completed"
    for printed in (indexed, found):
        assert "null" not in json.dumps(printed), printed


@pytest.mark.slow  # index, restart, replay: three CLI runs
def test_index_restart_search_replay(sample_repo: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = run(data, "index", str(sample_repo))
    assert first["status"] == "Completed"
    assert first["filesAdded"] == 7 and first["filesIndexed"] == 7
    assert first["deadLetters"] == 0

    again = run(data, "index", str(sample_repo))  # nothing changed: stat fast path
    assert again["filesAdded"] == again["filesUpdated"] == again["filesRemoved"] == 0
    # 8 seen (the binary is seen, never indexed); 7 unchanged, or 8 once the binary's mtime is
    # old enough for the fast path to vouch for it without re-sniffing (git's racy rule).
    assert again["filesScanned"] == 8 and again["filesUnchanged"] in (7, 8)

    (sample_repo / "docs" / "guide.md").unlink()
    (sample_repo / "src" / "billing" / "ledger.py").write_text("def post_entry(): return 1\n")
    changed = run(data, "index", str(sample_repo))
    assert changed["filesRemoved"] == 1 and changed["filesUpdated"] == 1

    found = run(data, "search", str(sample_repo), "InvoiceCalculator")
    assert found["hits"][0]["entry"]["path"] == "src/billing/invoice.py"
    before = [(h["entry"]["path"], h["score"]) for h in found["hits"]]

    replayed = run(data, "replay")
    assert replayed["repositories"] == ["sample"] and replayed["files"] == 6
    after = run(data, "search", str(sample_repo), "InvoiceCalculator")
    assert [(h["entry"]["path"], h["score"]) for h in after["hits"]] == before

    topics = {t["name"]: t for t in run(data, "topics")}
    assert topics["repocontext.files.v1"]["cleanup"] == "compact"
    assert sum(topics["repocontext.files.v1"]["endOffsets"]) >= 9

    status = run(data, "status")
    assert [r["repoId"] for r in status["repositories"]] == ["sample"]
    assert status["repositories"][0]["fileCount"] == 6


def test_status_of_a_data_directory_nothing_was_indexed_in(tmp_path: Path) -> None:
    """A new user's first `status`: no repositories, not 'cannot open the view store', and
    no data directory made for it."""
    data = tmp_path / "never-used"
    status = run(data, "status")
    assert (status["dataDir"], status["repositories"]) == (str(data), [])
    assert "for a server started with --data-dir" in status["note"]  # where else to look
    assert not data.exists()


def test_topics_and_memory_export_of_a_data_directory_never_written(tmp_path: Path) -> None:
    """A mistyped --data-dir: `topics` and `memory export` created it (log.db), and the export
    wrote an empty backup with exit 0. Now topics answers zero offsets and the export is
    refused, and neither makes the directory."""
    data = tmp_path / "mistyped"
    assert all(sum(topic["endOffsets"]) == 0 for topic in run(data, "topics"))
    proc = subprocess.run(
        cli_command("memory", "export", str(tmp_path / "backup.jsonl")),
        env=child_env(data), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 2 and "holds no repocontext log" in proc.stderr, proc.stderr
    assert not data.exists() and not (tmp_path / "backup.jsonl").exists()


def test_replay_of_a_data_directory_never_written(tmp_path: Path) -> None:
    """A mistyped --data-dir: `replay` created it (lock, log.db, views.db, the vector store)
    and printed `"replayedRecords": 0` with exit 0, as if it had rebuilt an empty project.
    Now it is refused as `memory export` is, and makes nothing. (A data directory that lost
    only log.db still replays: that is the remedy `status` names.)"""
    data = tmp_path / "mistyped"
    proc = subprocess.run(
        cli_command("replay"), env=child_env(data), capture_output=True, text=True, timeout=60
    )
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr
    assert "holds no repocontext log" in lines[0] and proc.stdout == ""
    assert not data.exists()


def test_status_says_when_the_views_trail_the_log(sample_repo: Path, tmp_path: Path) -> None:
    """After an interrupted `replay` or `index` the views hold part of the log while the job
    says Completed; status gave the partial file count with nothing saying so. Here the log
    of a later run is put under the views of an earlier one, as an interruption leaves them."""
    early, late = tmp_path / "early", tmp_path / "late"
    run(early, "index", str(sample_repo))
    shutil.copytree(early, late)
    (sample_repo / "src" / "added.py").write_text("def added_later():\n    return 1\n")
    run(late, "index", str(sample_repo))
    for suffix in ("", "-wal", "-shm"):
        (early / f"log.db{suffix}").unlink(missing_ok=True)
        if (late / f"log.db{suffix}").exists():
            shutil.copy2(late / f"log.db{suffix}", early / f"log.db{suffix}")
    behind = run(early, "status")
    assert behind["eventsBehind"] > 0, behind
    run(early, "index", str(sample_repo))  # a start applies the rest
    caught_up, files = run(early, "status"), run(late, "status")["repositories"][0]["fileCount"]
    assert caught_up["eventsBehind"] == 0 and caught_up["repositories"][0]["fileCount"] == files
    assert "logFault" not in caught_up


def test_status_says_when_the_log_is_gone_or_behind_the_views(
    sample_repo: Path, tmp_path: Path
) -> None:
    """A lost or replaced log.db is the one fault status could not show (it read the views
    only); it says so now, and still lists the repositories."""
    data, empty = tmp_path / "data", tmp_path / "empty"
    run(data, "index", str(sample_repo))
    run(empty, "memory", "import", str(write_header_only(tmp_path)))  # a log, no files
    for suffix in ("", "-wal", "-shm"):
        (data / f"log.db{suffix}").unlink(missing_ok=True)
    gone = run(data, "status")
    assert "log.db is missing" in gone["logFault"] and gone["repositories"], gone
    for suffix in ("", "-wal", "-shm"):
        if (empty / f"log.db{suffix}").exists():
            shutil.copy2(empty / f"log.db{suffix}", data / f"log.db{suffix}")
    ahead = run(data, "status")
    assert "ahead of the event log" in ahead["logFault"], ahead
    for suffix in ("-wal", "-shm"):
        (data / f"log.db{suffix}").unlink(missing_ok=True)
    log_db = data / "log.db"
    log_db.write_bytes(log_db.read_bytes()[:5000])  # cut mid-page: "malformed"
    damaged = run(data, "status")
    assert "malformed" in damaged["logFault"] and damaged["repositories"], damaged


def write_header_only(tmp_path: Path) -> Path:
    path = tmp_path / "nothing.jsonl"
    path.write_text('{"format": "repocontext-memory", "version": 1, "entries": 0}\n')
    return path


def test_status_of_damaged_views_says_what_mends_them(sample_repo: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    run(data, "index", str(sample_repo))
    for suffix in ("-wal", "-shm"):
        (data / f"views.db{suffix}").unlink(missing_ok=True)
    (data / "views.db").write_bytes(b"garbage")
    proc = subprocess.run(
        cli_command("status"), env=child_env(data), capture_output=True, text=True, timeout=60
    )
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert proc.returncode == 1 and len(lines) == 1, proc.stderr
    assert "not a database" in lines[0] and "rebuilds it from the log" in lines[0], lines[0]


def test_status_run_in_a_served_project_finds_its_data_directory(
    sample_repo: Path, tmp_path: Path
) -> None:
    """`index PATH` (as `serve PATH` and `mcp .`) keeps a data directory per project under the
    cache; `status` without PATH, run in that project, read the cache's root directory and
    answered `repositories: []`. Now it finds the project's in its directory or above it."""
    env = {k: v for k, v in child_env(tmp_path).items() if not k.startswith("REPOCONTEXT_")}
    env |= {"XDG_CACHE_HOME": str(tmp_path / "cache"), "REPOCONTEXT_EMBEDDER": "none"}

    def cli(*args: str, cwd: Path) -> Any:
        proc = subprocess.run(
            cli_command(*args), env=env, cwd=cwd, capture_output=True, text=True, timeout=180
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
        return json.loads(proc.stdout)

    cli("index", str(sample_repo), cwd=tmp_path)
    inside = sample_repo / "src"
    status = cli("status", cwd=inside)
    assert [r["repoId"] for r in status["repositories"]] == ["sample"]
    assert "workspaces" in status["dataDir"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert cli("status", cwd=elsewhere)["repositories"] == []  # no project served here
