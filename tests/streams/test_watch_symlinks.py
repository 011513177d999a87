"""The watcher watches what the walk visits: no symlink followed, nothing ignored.

What is watched is read from the kernel (`/proc/self/fdinfo` of every inotify descriptor of
this process), not from the watcher's own bookkeeping.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.streams.test_watcher import watching

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def watched_inodes() -> set[int]:
    """Inodes of every directory an inotify descriptor of this process watches."""
    found: set[int] = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}") != "anon_inode:inotify":
                continue
            with open(f"/proc/self/fdinfo/{fd}") as info:
                lines = info.read().splitlines()
        except OSError:
            continue
        for line in lines:
            if line.startswith("inotify wd:"):
                ino = next(f for f in line.split() if f.startswith("ino:"))
                found.add(int(ino[4:], 16))
    return found


def _inodes(top: Path) -> set[int]:
    out = {os.stat(top).st_ino}
    for base, dirs, _files in os.walk(top):
        out.update(os.stat(os.path.join(base, d)).st_ino for d in dirs)
    return out


def _layout(tmp_path: Path) -> tuple[Path, Path]:
    root, outside = tmp_path / "repo", tmp_path / "outside"
    for rel in ("src/pkg", "node_modules/dep/lib", "build/out"):
        (root / rel).mkdir(parents=True)
    for i in range(5):
        (outside / f"d{i}" / "sub").mkdir(parents=True)
    (root / ".gitignore").write_text("node_modules/\n")
    (root / "src" / "a.py").write_text("a = 1\n")
    (root / "rootlink").symlink_to("/")
    (root / "outlink").symlink_to(outside)
    return root, outside


async def test_symlinks_and_ignored_directories_are_never_watched(tmp_path: Path) -> None:
    from schemas.events import WalkFilters

    root, outside = _layout(tmp_path)
    before = watched_inodes()
    filters = WalkFilters(exclude_globs=("build/",))
    async with watching(root, filters=filters) as seen:
        watched = watched_inodes() - before
        real_dirs = {os.stat(root / p).st_ino for p in ("", "src", "src/pkg")}
        assert real_dirs <= watched
        assert not watched & _inodes(outside)  # not through outlink
        assert not watched & {os.stat("/").st_ino, os.stat("/proc").st_ino}  # nor rootlink
        assert not watched & _inodes(root / "node_modules")  # ignored before watching
        assert not watched & _inodes(root / "build")  # excluded before watching
        assert len(watched) == len(real_dirs)

        (root / "late").symlink_to(outside / "d1")  # a symlink made while watching
        (root / "src" / "newdir").mkdir()  # a real directory made while watching
        (root / "src" / "newdir" / "b.py").write_text("b = 2\n")
        await seen.until(lambda: "src/newdir/b.py" in seen.upserts)
        (outside / "d1" / "secret.py").write_text("s = 3\n")
        (root / "src" / "c.py").write_text("c = 4\n")
        await seen.until(lambda: "src/c.py" in seen.upserts)
        watched = watched_inodes() - before
        assert os.stat(root / "src" / "newdir").st_ino in watched
        assert not watched & _inodes(outside)
        published = seen.upserts + seen.deletes
        assert not [p for p in published if p.startswith(("late", "outlink", "rootlink"))]
