"""The git poller against local bare repositories (file:// URLs, no network), on a real log."""

from __future__ import annotations

import codecs
import json
import os
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from schemas import codec, topics
from schemas.events import FileUpsert, RepoRegistration, file_key
from streams.errors import SourceError
from streams.eventlog.base import EventLog, LogRecord, StoredRecord
from streams.eventlog.factory import open_event_log
from streams.sources.git_poller import GitPoller, GitSource, redact
from tests.conftest import child_env, cli_command

pytestmark = pytest.mark.anyio


def git(cwd: Path, *args: str) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@x", GIT_COMMITTER_NAME="t")
    env["GIT_COMMITTER_EMAIL"] = "t@x"
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True
    ).stdout.strip()


@pytest.fixture
def remote(tmp_path: Path) -> tuple[Path, Path]:
    """(bare repository, a clone to commit in and push from)."""
    bare, work = tmp_path / "remote.git", tmp_path / "work"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(work)], check=True)
    (work / "src").mkdir()
    (work / "src" / "app.py").write_text("def main():\n    return 1\n")
    (work / "src" / "util.py").write_text("def helper():\n    return 2\n")
    (work / "README.md").write_text("# demo\n")
    (work / "logo.bin").write_bytes(b"\x00\x01binary")
    # a PDF (an Illustrator file is one) whose first NUL lies past the 8,000-byte sniff
    (work / "logo.ai").write_bytes(b"%PDF-1.6\n%" + b"<x:xmpmeta/>\n" * 800 + b"\x00\x9c")
    os.symlink("src/app.py", work / "link.py")
    git(work, "add", "-A")
    git(work, "commit", "-qm", "one")
    git(work, "push", "-q", str(bare), "main")
    return bare, work


@pytest.fixture
async def log(tmp_path: Path) -> AsyncIterator[EventLog]:
    el = open_event_log(f"sqlite:///{tmp_path / 'log.db'}")
    await el.create_topics(topics.CATALOGUE)
    yield el
    await el.close()


async def files_events(log: EventLog, since: dict[int, int]) -> list[StoredRecord]:
    out = []
    for p in range(topics.FILES.partitions):
        batch = await log.read(topics.FILES.name, p, since.get(p, 0), 10_000)
        out += batch
        if batch:
            since[p] = batch[-1].offset + 1
    return out


async def test_publishes_exactly_the_changes_and_stamps_the_commit(
    log: EventLog, remote: tuple[Path, Path], tmp_path: Path
) -> None:
    bare, work = remote
    source = GitSource(repo_id="demo", url=f"file://{bare}", ref="main", depth=1)
    poller = GitPoller(log, source, tmp_path / "staging")
    await poller.register()
    seen: dict[int, int] = {}

    first = await poller.poll_once()
    head = git(work, "rev-parse", "HEAD")
    assert first.status == "published" and first.commit == head and first.previous is None
    events = await files_events(log, seen)
    assert sorted(r.key or "" for r in events) == [
        file_key("demo", p) for p in ("README.md", "src/app.py", "src/util.py")
    ]  # the binaries and the symlink are never published
    upsert = codec.decode(topics.FILES.name, events[0].value)
    assert isinstance(upsert, FileUpsert) and upsert.source_revision == head

    assert (await poller.poll_once()).status == "unchanged"
    assert await files_events(log, seen) == []

    (work / "src" / "app.py").write_text("def main():\n    return 3\n")
    (work / "src" / "util.py").unlink()
    (work / "docs.md").write_text("new\n")
    git(work, "add", "-A")
    git(work, "commit", "-qm", "two")
    git(work, "push", "-q", str(bare), "main")
    second = await poller.poll_once()
    head2 = git(work, "rev-parse", "HEAD")
    assert (second.previous, second.commit) == (head, head2)
    assert (second.added, second.modified, second.deleted) == (
        ["docs.md"],
        ["src/app.py"],
        ["src/util.py"],
    )
    events = await files_events(log, seen)
    by_key = {r.key: r.value for r in events}
    assert set(by_key) == {file_key("demo", p) for p in ("docs.md", "src/app.py", "src/util.py")}
    assert by_key[file_key("demo", "src/util.py")] is None  # a tombstone
    app = codec.decode(topics.FILES.name, by_key[file_key("demo", "src/app.py")])
    assert isinstance(app, FileUpsert) and "return 3" in app.body
    assert app.source_revision == head2

    # a restarted poller (same staging dir) resumes from the indexed commit: nothing new
    again = GitPoller(log, source, tmp_path / "staging")
    assert (await again.poll_once()).status == "unchanged"


async def test_a_utf16_file_is_published_as_text(
    log: EventLog, remote: tuple[Path, Path], tmp_path: Path
) -> None:
    """A Windows-authored UTF-16 file (byte-order mark, a NUL in every ASCII character) was
    left out as binary; it is published with its decoded text as the body."""
    bare, work = remote
    text = "Windows Registry Editor Version 5.00\r\n[HKEY_CURRENT_USER\\Ünï]\r\n"
    (work / "setup.reg").write_bytes(codecs.BOM_UTF16_LE + text.encode("utf-16-le"))
    git(work, "add", "-A")
    git(work, "commit", "-qm", "utf-16")
    git(work, "push", "-q", str(bare), "main")
    poller = GitPoller(log, GitSource("demo", f"file://{bare}", "main"), tmp_path / "staging")
    assert "setup.reg" in (await poller.poll_once()).added
    by_key = {r.key: r.value for r in await files_events(log, {})}
    reg = codec.decode(topics.FILES.name, by_key[file_key("demo", "setup.reg")])
    assert isinstance(reg, FileUpsert)
    assert (reg.body, reg.decode_errors, reg.binary) == (text, False, False)


async def test_fetch_failure_keeps_the_last_generation_and_hides_credentials(
    log: EventLog, remote: tuple[Path, Path], tmp_path: Path
) -> None:
    bare, _ = remote
    good = GitPoller(log, GitSource("demo", f"file://{bare}", "main"), tmp_path / "staging")
    assert (await good.poll_once()).status == "published"
    secret_url = f"https://alice:s3cr3t@127.0.0.1:9/{bare.name}"
    bad = GitPoller(log, GitSource("demo", secret_url, "main"), tmp_path / "staging")
    failed = await bad.poll_once()
    assert failed.status == "fetch_failed" and failed.error
    assert "s3cr3t" not in failed.error and "alice" not in failed.error
    assert redact(secret_url) == f"https://127.0.0.1:9/{bare.name}"
    assert (await bad.poll_once()).status == "fetch_failed"
    # nothing was tombstoned: the last generation keeps serving
    events = await files_events(log, {})
    assert all(r.value is not None for r in events)


async def test_a_fetch_failure_is_said_in_one_line(
    log: EventLog, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """git's own message is several lines ("fatal: ... does not appear to be a git
    repository", a blank line, "Please make sure you have the correct access rights"); the
    operator's log and the poll's `error` say it in one."""
    missing = GitPoller(log, GitSource("demo", f"file://{tmp_path}/missing.git"), tmp_path / "s")
    failed = await missing.poll_once()
    assert failed.status == "fetch_failed" and failed.error
    assert "\n" not in failed.error and "does not appear to be a git repository" in failed.error
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warnings and all("\n" not in line for line in warnings), warnings


async def test_a_workspace_repository_cannot_also_be_git_sourced(
    log: EventLog, remote: tuple[Path, Path], tmp_path: Path
) -> None:
    workspace = RepoRegistration(repo_id="demo", root=str(tmp_path), registered_at=1.0)
    await log.append(topics.REPOS.name, [LogRecord("demo", codec.encode(workspace))])
    poller = GitPoller(log, GitSource("demo", f"file://{remote[0]}"), tmp_path / "staging")
    with pytest.raises(SourceError, match="workspace-sourced"):
        await poller.register()


@pytest.mark.slow  # two `repocontext git-source` processes
def test_git_source_command(remote: tuple[Path, Path], tmp_path: Path) -> None:
    bare, work = remote
    args = ["git-source", f"file://{bare}", "--repo-id", "demo", "--ref", "main", "--once"]
    env = child_env(tmp_path / "data")
    first = subprocess.run(cli_command(*args), env=env, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr[-2000:]
    result = json.loads(first.stdout)
    assert result["status"] == "published" and result["commit"] == git(work, "rev-parse", "HEAD")
    assert sorted(result["added"]) == ["README.md", "src/app.py", "src/util.py"]
    again = subprocess.run(cli_command(*args), env=env, capture_output=True, text=True)
    assert json.loads(again.stdout)["status"] == "unchanged"
