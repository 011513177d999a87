"""The live workspace watcher: real filesystem events in, change batches out."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import subprocess
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest

from schemas.events import WalkFilters
from streams.sources.ignore import PathFilter
from streams.sources.manifest import ManifestRow
from streams.sources.reconcile import ChangeBatch, plan_changes
from streams.sources.watcher import WorkspaceWatcher, iter_path_changes

DEADLINE_S = 15.0


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Seen:
    """Everything a running watcher yielded, in order."""

    def __init__(self, watcher: WorkspaceWatcher) -> None:
        self.watcher = watcher
        self.batches: list[ChangeBatch] = []

    @property
    def upserts(self) -> list[str]:
        return [s.path for b in self.batches for s in b.upserts]

    @property
    def deletes(self) -> list[str]:
        return [p for b in self.batches for p in b.deletes]

    async def until(self, condition: Callable[[], bool]) -> None:
        """Poll for a condition with a deadline (events arrive asynchronously)."""
        with anyio.fail_after(DEADLINE_S):
            while not condition():
                await anyio.sleep(0.01)


@asynccontextmanager
async def watching(
    root: Path, known: dict[str, ManifestRow] | None = None, filters: WalkFilters | None = None
) -> AsyncIterator[Seen]:
    watcher = WorkspaceWatcher(
        root, filters or WalkFilters(), known, debounce_ms=20, idle_timeout_ms=50
    )
    seen = Seen(watcher)

    async def consume() -> None:
        async for batch in watcher:
            seen.batches.append(batch)

    async with anyio.create_task_group() as tg:
        tg.start_soon(consume)
        await seen.until(lambda: watcher.synced)
        try:
            yield seen
        finally:
            watcher.stop()


@pytest.mark.anyio
async def test_create_modify_delete(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("a = 1\n")
    async with watching(tmp_path) as seen:
        assert seen.upserts == ["a.py"]  # the initial reconcile
        (tmp_path / "b.py").write_text("b = 1\n")
        await seen.until(lambda: "b.py" in seen.upserts)
        (tmp_path / "a.py").write_text("a = 2\n")
        await seen.until(lambda: seen.upserts.count("a.py") == 2)
        (tmp_path / "b.py").unlink()
        await seen.until(lambda: seen.deletes == ["b.py"])
    assert seen.watcher.known.keys() == {"a.py"}
    final = [s for b in seen.batches for s in b.upserts if s.path == "a.py"][-1]
    assert final.body == "a = 2\n"


@pytest.mark.anyio
async def test_rewrite_with_identical_bytes_publishes_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("same\n")
    async with watching(tmp_path) as seen:
        (tmp_path / "a.py").write_text("same\n")
        (tmp_path / "marker.py").write_text("m\n")  # events are handled in order
        await seen.until(lambda: "marker.py" in seen.upserts)
        assert seen.upserts == ["a.py", "marker.py"]
        assert seen.deletes == []


@pytest.mark.anyio
async def test_startup_with_a_current_manifest_publishes_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("a\n")
    known: dict[str, ManifestRow] = {}
    for batch in plan_changes(tmp_path, WalkFilters(), known):
        batch.apply_to(known)
    async with watching(tmp_path, known) as seen:
        assert seen.upserts == [] and seen.deletes == []


@pytest.mark.anyio
async def test_directory_create_rename_and_remove(tmp_path: Path) -> None:
    async with watching(tmp_path) as seen:
        (tmp_path / "pkg" / "sub").mkdir(parents=True)
        (tmp_path / "pkg" / "a.py").write_text("a\n")
        (tmp_path / "pkg" / "sub" / "b.py").write_text("b\n")
        await seen.until(lambda: {"pkg/a.py", "pkg/sub/b.py"} <= set(seen.upserts))
        (tmp_path / "pkg").rename(tmp_path / "lib")
        await seen.until(lambda: {"lib/a.py", "lib/sub/b.py"} <= set(seen.upserts))
        await seen.until(lambda: {"pkg/a.py", "pkg/sub/b.py"} <= set(seen.deletes))
        shutil.rmtree(tmp_path / "lib")
        await seen.until(lambda: {"lib/a.py", "lib/sub/b.py"} <= set(seen.deletes))
    assert seen.watcher.known == {}
    assert len(seen.upserts) == len(set(seen.upserts))  # each file published once


@pytest.mark.anyio
async def test_gitignore_change_reevaluates_rules(tmp_path: Path) -> None:
    (tmp_path / "app.log").write_text("log\n")
    (tmp_path / "main.py").write_text("main\n")
    async with watching(tmp_path) as seen:
        (tmp_path / ".gitignore").write_text("*.log\n")
        await seen.until(lambda: seen.deletes == ["app.log"])
        assert ".gitignore" in seen.upserts
        (tmp_path / ".gitignore").write_text("")
        await seen.until(lambda: seen.upserts.count("app.log") == 2)


@pytest.mark.anyio
async def test_ignored_directories_stay_quiet(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("node_modules/\n")
    (tmp_path / "node_modules").mkdir()
    async with watching(tmp_path) as seen:
        (tmp_path / "node_modules" / "dep.js").write_text("x\n")
        (tmp_path / ".git").mkdir()
        (tmp_path / ".git" / "HEAD").write_text("ref\n")
        (tmp_path / "marker.py").write_text("m\n")
        await seen.until(lambda: "marker.py" in seen.upserts)
        assert seen.upserts == [".gitignore", "marker.py"]


@pytest.mark.anyio
async def test_file_that_becomes_binary_or_a_symlink_is_deleted(tmp_path: Path) -> None:
    (tmp_path / "data.txt").write_text("text\n")
    (tmp_path / "note.md").write_text("note\n")
    (tmp_path / "target.md").write_text("target\n")
    async with watching(tmp_path) as seen:
        (tmp_path / "data.txt").write_bytes(b"\x00\x01\x02")
        await seen.until(lambda: "data.txt" in seen.deletes)
        (tmp_path / "note.md").unlink()
        (tmp_path / "note.md").symlink_to(tmp_path / "target.md")
        await seen.until(lambda: "note.md" in seen.deletes)
    assert seen.watcher.known["data.txt"].digest is None  # remembered as an unpublished binary


def test_iter_path_changes_directory_gone_and_file_replaced_by_directory(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x.py").write_text("x\n")
    (tmp_path / "f").write_text("file\n")
    known: dict[str, ManifestRow] = {}
    for batch in plan_changes(tmp_path, WalkFilters(), known):
        batch.apply_to(known)
    shutil.rmtree(tmp_path / "d")
    (tmp_path / "f").unlink()
    (tmp_path / "f").mkdir()
    (tmp_path / "f" / "inner.py").write_text("inner\n")
    rules = PathFilter(tmp_path, WalkFilters())
    batches = list(
        iter_path_changes(tmp_path, WalkFilters(), rules, known, ["d", "f", "f/inner.py"])
    )
    assert [p for b in batches for p in b.deletes] == ["d/x.py", "f"]
    assert [s.path for b in batches for s in b.upserts] == ["f/inner.py"]


@pytest.mark.anyio
async def test_cancelling_a_drain_mid_batch_stays_a_cancellation(tmp_path: Path) -> None:
    """The watcher steps its batch generator on a worker thread. Cancelled while the thread is
    inside next(), the drain used to close the running generator, and its ValueError
    ("generator already executing") replaced the cancellation: ingest took it for a failure,
    retried, and closing the app waited forever."""
    entered, release = threading.Event(), threading.Event()

    def slow_batches() -> Iterator[ChangeBatch]:
        entered.set()
        release.wait(10)
        yield from ()

    watcher = WorkspaceWatcher(tmp_path, WalkFilters(), {})

    async def consume() -> None:
        async for _ in watcher._drain(slow_batches()):
            pass

    task = asyncio.create_task(consume())
    await anyio.to_thread.run_sync(entered.wait, 10)
    task.cancel()
    try:
        with pytest.raises(asyncio.CancelledError):
            await task
    finally:
        release.set()


def git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=root,
        check=True,
        capture_output=True,
    )


@pytest.mark.anyio
@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
async def test_a_file_added_to_git_despite_the_ignore_rules_is_picked_up(tmp_path: Path) -> None:
    """`git add -f` changes only git's index, no file the watcher watches: the watcher notices
    the index lists other files and re-plans, so the newly tracked file is indexed."""
    (tmp_path / ".gitignore").write_text("build/\n")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "generated.py").write_text("def made(): pass\n")
    (tmp_path / "main.py").write_text("main\n")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".gitignore", "main.py")
    async with watching(tmp_path) as seen:
        assert "build/generated.py" not in seen.upserts
        git(tmp_path, "status", "--short")  # may rewrite the index, listing the same files
        git(tmp_path, "add", "-f", "build/generated.py")
        await seen.until(lambda: "build/generated.py" in seen.upserts)
        git(tmp_path, "rm", "-q", "--cached", "build/generated.py")
        await seen.until(lambda: "build/generated.py" in seen.deletes)


def test_a_path_the_watcher_cannot_read_is_named_in_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """chmod 000 on a served file (or directory) took it out of the index without a word:
    no warning, and the job's counts are the last full pass's. The watcher now says so, as
    a full pass does. Root reads chmod 000, so the OS refuses the open here instead."""
    for rel in ("a.py", "locked/b.py", "ok.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x = 1\n")
    known = {rel: ManifestRow(6, 1, "xx128:old", 1) for rel in ("a.py", "locked/b.py", "ok.py")}
    real_open = os.open

    def deny(path: str | Path, flags: int, *args: int, **kwargs: int) -> int:
        if os.fspath(path) in ("a.py", "locked"):  # opened beneath the root, by name
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", deny)
    caplog.set_level(logging.WARNING, logger="streams.sources.watcher")
    rules = PathFilter(tmp_path, WalkFilters())
    batches = list(iter_path_changes(tmp_path, WalkFilters(), rules, known, ["a.py", "locked"]))
    assert sorted(p for b in batches for p in b.deletes) == ["a.py", "locked/b.py"]
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warned) == 1 and "could not be read" in warned[0], warned
    assert "a.py" in warned[0] and "locked/" in warned[0]


@pytest.mark.anyio
@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
async def test_names_that_are_not_utf8_do_not_stop_the_watch(tmp_path: Path) -> None:
    """The gitignore rules (RE2, UTF-8 only) raised on a name that is not UTF-8: a file so
    named, created while watching, restarted the watch with a traceback, and a directory so
    named stopped it for good (each restart failed placing its watches). Such names are
    left out as a walk leaves them out, and the watch goes on."""
    root = os.fsencode(tmp_path)
    (tmp_path / ".gitignore").write_text("vendor\n")
    (tmp_path / "main.py").write_text("main\n")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".gitignore", "main.py")
    os.makedirs(root + b"/old\xfe")  # there before the watch starts
    async with watching(tmp_path) as seen:
        os.close(os.open(root + b"/bad\xff.py", os.O_CREAT | os.O_WRONLY))
        os.makedirs(root + b"/dir\xfe/below")
        os.close(os.open(root + b"/dir\xfe/below/x.py", os.O_CREAT | os.O_WRONLY))
        (tmp_path / "after.py").write_text("after\n")
        await seen.until(lambda: "after.py" in seen.upserts)
    assert sorted(seen.upserts) == [".gitignore", "after.py", "main.py"]
