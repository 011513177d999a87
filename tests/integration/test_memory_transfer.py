"""`repocontext memory export|import`: a backup survives losing the data directory, importing
is an idempotent merge (newer local entries win), and a foreign file is a clear error."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession

from tests.conftest import ServeProcess, child_env, cli_command, write_sample_repo
from tests.integration.mcp_helpers import call, http_session
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio
KEYS = [
    "repo/repo/mem/decisions/db",
    "repo/repo/mem/decisions/queue",
    "repo/repo/mem/notes/ttl",
    "repo/other/mem/notes/x",
]


def cli(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**child_env(data), "REPOCONTEXT_PROCESSOR_WORKERS": "0"}
    return subprocess.run(
        cli_command("memory", *args), env=env, capture_output=True, text=True, timeout=120
    )


def ok(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert proc.returncode == 0, proc.stderr[-2000:]
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


async def remember_some(s: ClientSession) -> None:
    await call(
        s,
        "repocontext_remember",
        {
            "repoId": "repo",
            "topic": "decisions",
            "id": "db",
            "kind": "Decision",
            "title": "Use SQLite",
            "body": "Embedded default.",
            "tags": ["storage", "adr"],
            "addLinks": {"about": ["repo/repo/file/src/billing/ledger.py"]},
        },
    )
    await call(
        s,
        "repocontext_remember",
        {
            "repoId": "repo",
            "topic": "decisions",
            "id": "queue",
            "title": "Kafka later",
            "addLinks": {"dependsOn": ["repo/repo/mem/decisions/db"]},
        },
    )
    await call(
        s,
        "repocontext_remember",
        {"repoId": "repo", "topic": "notes", "id": "ttl", "body": "soon", "ttlSeconds": 3600},
    )
    await call(s, "repocontext_remember", {"repoId": "other", "topic": "notes", "id": "x"})
    await call(s, "repocontext_update", {"key": KEYS[0], "addTags": ["wal"]})


async def recall_all(s: ClientSession) -> dict[str, dict[str, Any]]:
    views = {}
    for key in KEYS:
        view = await call(s, "repocontext_recall", {"key": key})
        view.pop("remainingSeconds", None)  # counts down between two reads
        views[key] = view
    return views


def memory_records(data: Path) -> int:
    conn = sqlite3.connect(data / "log.db")
    try:
        return int(
            conn.execute(
                "SELECT count(*) FROM records WHERE topic = 'repocontext.memory.v1'"
            ).fetchone()[0]
        )
    finally:
        conn.close()


@pytest.mark.slow  # export, wipe and import through the CLI
async def test_export_wipe_import_restores_every_entry(tmp_path: Path) -> None:
    data = tmp_path / "data"
    async with memory_rig(tmp_path, repos=("repo", "other")) as (_, s):
        await remember_some(s)
        before = await recall_all(s)
    assert all(v["exists"] for v in before.values())

    backup = tmp_path / "memory.jsonl"
    assert ok(cli(data, "export", str(backup))) == {
        "file": str(backup),
        "entries": 4,
        "expiredLeftOut": 0,
    }
    header = json.loads(backup.read_text().splitlines()[0])
    assert header["format"] == "repocontext-memory" and header["version"] == 1
    one_repo = tmp_path / "repo-only.jsonl"
    assert ok(cli(data, "export", str(one_repo), "--repo-id", "other"))["entries"] == 1

    shutil.rmtree(data)
    first = ok(cli(data, "import", str(backup)))
    assert first == {"file": str(backup), "entries": 4, "imported": 4, "unchanged": 0,
                     "localNewer": 0, "expired": 0}  # fmt: skip
    async with memory_rig(tmp_path) as (_, s):
        assert await recall_all(s) == before

    records = memory_records(data)
    again = ok(cli(data, "import", str(backup)))
    assert again["imported"] == 0 and again["unchanged"] == 4
    assert memory_records(data) == records, "a re-import must not write memory.v1"
    async with memory_rig(tmp_path) as (_, s):
        assert await recall_all(s) == before
        scan = await call(s, "repocontext_scan", {"repoId": "repo", "scope": "Memory"})
        assert sorted(e["key"] for e in scan["entries"]) == sorted(KEYS[:3])  # no duplicates
        # A newer local edit is not clobbered by the older backup.
        await call(s, "repocontext_update", {"key": KEYS[1], "fields": {"body": "local"}})
    newer = ok(cli(data, "import", str(backup)))
    assert newer["localNewer"] == 1 and newer["unchanged"] == 3 and newer["imported"] == 0
    async with memory_rig(tmp_path) as (_, s):
        got = await call(s, "repocontext_recall", {"key": KEYS[1]})
        assert got["fields"]["body"] == "local"


async def test_expired_entries_are_skipped_and_the_repo_filter_applies(tmp_path: Path) -> None:
    data = tmp_path / "data"
    path = tmp_path / "crafted.jsonl"
    lines = [
        {"format": "repocontext-memory", "version": 1},
        {"repoId": "a", "topic": "t", "id": "old", "createdAt": 1.0, "updatedAt": 1.0,
         "expiresAt": 2.0},
        {"repoId": "a", "topic": "t", "id": "live", "fields": {"body": "kept"},
         "createdAt": 1.0, "updatedAt": 1.0},
        {"repoId": "b", "topic": "t", "id": "elsewhere", "createdAt": 1.0, "updatedAt": 1.0},
    ]  # fmt: skip
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    result = ok(cli(data, "import", str(path), "--repo-id", "a"))
    assert (result["entries"], result["imported"], result["expired"]) == (2, 1, 1)
    async with memory_rig(tmp_path) as (_, s):
        live = await call(s, "repocontext_recall", {"key": "repo/a/mem/t/live"})
        assert live["exists"] and live["fields"]["body"] == "kept"
        for key in ("repo/a/mem/t/old", "repo/b/mem/t/elsewhere"):
            assert not (await call(s, "repocontext_recall", {"key": key}))["exists"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"format": "repocontext-memory", "version": 2}\n', "version 2; this repocontext reads"),
        ('{"format": "something-else", "version": 1}\n', "is not a memory export"),
        ("not json\n", ":1: not a repocontext-memory header"),
        (
            '{"format": "repocontext-memory", "version": 1}\n{"repoId": "a/b", "topic": "t", '
            '"id": "i", "createdAt": 1, "updatedAt": 1}\n',
            ":2: `repoId` must be non-empty",
        ),
        (
            '{"format": "repocontext-memory", "version": 1}\n{"repoId": "a", "topic": "t"}\n',
            ":2: `id`: Field required",
        ),
        (  # a backup cut at a line boundary parses cleanly: the header's count says so
            '{"format": "repocontext-memory", "version": 1, "entries": 2}\n{"repoId": "a", '
            '"topic": "t", "id": "i", "createdAt": 1, "updatedAt": 1}\n',
            "has 1 entry lines; its header announces 2: the file is truncated",
        ),
    ],
)
def test_a_foreign_or_broken_file_is_a_clear_error(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    proc = cli(tmp_path / "data", "import", str(path))
    assert proc.returncode == 2
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], proc.stderr
    assert " ERROR repocontext memory import: " in lines[0]  # named once, like every command
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "data" / "log.db").exists(), "a bad file must not touch the data"


@pytest.mark.slow  # starts a server next to the import
async def test_import_next_to_a_running_server_merges_through_it(tmp_path: Path) -> None:
    """Several processes on one data directory (issue 24 item 7): `memory import` while a
    server runs merges through it (it failed on the data directory's lock), and the
    server's agents read the entries at once."""
    async with memory_rig(tmp_path, repos=("repo", "other")) as (_, s):
        await remember_some(s)
        before = await recall_all(s)
    backup = tmp_path / "memory.jsonl"
    ok(cli(tmp_path / "data", "export", str(backup)))

    served = tmp_path / "served"
    server = ServeProcess(write_sample_repo(tmp_path / "ws2" / "sample"), served)
    try:
        proc = cli(served, "import", str(backup))
        merged = ok(proc)
        assert merged["entries"] == 4 and merged["imported"] == 4, merged
        assert "importing through it" in proc.stderr and "Traceback" not in proc.stderr
        async with http_session(server.base) as http:
            assert await recall_all(http) == before
    finally:
        server.stop()


def test_a_backup_an_editor_saved_with_a_byte_order_mark_imports(tmp_path: Path) -> None:
    """A BOM (Notepad, some editors) made the header 'not a repocontext-memory header'."""
    path = tmp_path / "edited.jsonl"
    path.write_text(
        '\ufeff{"format": "repocontext-memory", "version": 1, "entries": 1}\r\n'
        '{"repoId": "a", "topic": "t", "id": "i", "createdAt": 1, "updatedAt": 1}\r\n',
        encoding="utf-8",
    )
    assert ok(cli(tmp_path / "data", "import", str(path)))["imported"] == 1


def test_export_writes_through_a_symlink_and_refuses_what_is_not_a_file(tmp_path: Path) -> None:
    """`memory export /dev/stdout` replaced the link with a regular file (the rename landed on
    the link): a link is followed to the file it names, a fifo or device is refused unopened."""
    data, elsewhere = tmp_path / "data", tmp_path / "elsewhere"
    elsewhere.mkdir()
    target, link = elsewhere / "backup.jsonl", tmp_path / "link.jsonl"
    link.symlink_to(target)
    one = tmp_path / "one.jsonl"
    one.write_text(
        '{"format": "repocontext-memory", "version": 1}\n'
        '{"repoId": "a", "topic": "t", "id": "i", "createdAt": 1, "updatedAt": 1}\n'
    )
    assert ok(cli(data, "import", str(one)))["imported"] == 1
    assert ok(cli(data, "export", str(link)))["entries"] == 1
    assert link.is_symlink() and json.loads(target.read_text().splitlines()[0])["entries"] == 1
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    proc = cli(data, "export", str(fifo))  # a device (/dev/stdout's target) takes this branch
    assert proc.returncode == 2 and "not a regular file" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and stat.S_ISFIFO(fifo.lstat().st_mode)
