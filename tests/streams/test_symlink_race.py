"""A directory swapped for a symlink while the walk and its reads run never leaks outside bytes.

An attacker who can write inside a repository renames a directory and puts a symlink to an
outside directory in its place, in a loop, while the server indexes (`mv zzz zzz_real;
ln -s /outside zzz`). The walk, the reads, the watcher's per-path reconcile and `changed`
must never list the outside directory nor put a byte of an outside file into what they
publish: every component is opened beneath the root without following symlinks.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from schemas.events import WalkFilters
from streams.sources.changes import diff_against_index
from streams.sources.ignore import PathFilter, read_gitignore
from streams.sources.reconcile import ChangeBatch, plan_changes
from streams.sources.safe_open import lstat_beneath, open_dir_beneath, open_file_beneath
from streams.sources.walker import FileSnapshot, Skipped, read_file, walk
from streams.sources.watcher import iter_path_changes

OUTSIDE_MARK = "OUTSIDE-SECRET"
ROUNDS = 150
FILES = 8


def _layout(tmp_path: Path) -> tuple[Path, Path]:
    outside = tmp_path / "outside"
    root = tmp_path / "repo"
    (outside / "deeper").mkdir(parents=True)
    (root / "zzz" / "deeper").mkdir(parents=True)
    for i in range(FILES):
        (outside / f"s{i}.txt").write_text(f"{OUTSIDE_MARK} {i}\n")
        (outside / "deeper" / f"d{i}.txt").write_text(f"{OUTSIDE_MARK} deep {i}\n")
        (root / "zzz" / f"s{i}.txt").write_text(f"inside {i}\n")
        (root / "zzz" / "deeper" / f"d{i}.txt").write_text(f"inside deep {i}\n")
    (outside / "only_outside.txt").write_text(f"{OUTSIDE_MARK} only\n")
    (outside / ".gitignore").write_text("s*.txt\n")  # must never decide anything inside
    (root / "top.txt").write_text("top\n")
    return root, outside


@contextmanager
def swapping(root: Path, outside: Path) -> Iterator[threading.Event]:
    """Swap root/zzz for a symlink to `outside` and back, as fast as possible, until exit."""
    stop = threading.Event()
    real, moved, link = root / "zzz", root / "zzz_real", root / "zzz"

    def loop() -> None:
        # Each state is held briefly (the attacker's pace), so readers meet both states.
        while not stop.wait(0.0005):
            os.rename(real, moved)
            os.symlink(outside, link)
            stop.wait(0.0005)
            os.unlink(link)
            os.rename(moved, real)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield stop
    finally:
        stop.set()
        thread.join(timeout=30)


def _leaks(batches: Iterator[ChangeBatch]) -> list[str]:
    out: list[str] = []
    for batch in batches:
        for snap in batch.upserts:
            if OUTSIDE_MARK in snap.body or "only_outside" in snap.path:
                out.append(f"{snap.path}: {snap.body!r}")
        out.extend(p for p in batch.record if "only_outside" in p)
    return out


@pytest.mark.slow
def test_swapped_parent_never_serves_outside_bytes(tmp_path: Path) -> None:
    root, outside = _layout(tmp_path)
    filters = WalkFilters()
    leaks: list[str] = []
    published: set[str] = set()
    with swapping(root, outside):
        for _ in range(ROUNDS):
            batches = list(plan_changes(root, filters, {}, workers=2))
            published.update(s.path for b in batches for s in b.upserts)
            leaks += _leaks(iter(batches))
            rules = PathFilter(root, filters)
            paths = ["zzz", "zzz/s0.txt", "zzz/deeper", "zzz/deeper/d1.txt"]
            leaks += _leaks(iter_path_changes(root, filters, rules, {}, paths))
            changed = diff_against_index(root, filters, {}, "zzz")
            leaks += [p for p in changed.added if "only_outside" in p]
    assert leaks == []
    assert "top.txt" in published  # the loop really indexed while the swaps ran
    # and read inside files between swaps, under either name the swapper gives the directory
    assert any(p.startswith(("zzz/", "zzz_real/")) for p in published), sorted(published)


def test_parent_swapped_between_listing_and_reading_is_refused(tmp_path: Path) -> None:
    root, outside = _layout(tmp_path)
    filters = WalkFilters()
    entries = list(walk(root, filters))
    assert "zzz/deeper/d0.txt" in {e.path for e in entries}
    os.rename(root / "zzz", root / "zzz_real")
    os.symlink(outside, root / "zzz")
    results = [read_file(root, e.path) for e in entries]
    leaked = [r.path for r in results if isinstance(r, FileSnapshot) and OUTSIDE_MARK in r.body]
    assert leaked == []
    assert {r.path: r for r in results}["zzz/s0.txt"] == Skipped("zzz/s0.txt", "symlink")
    assert read_gitignore(root, "zzz") == []  # the outside .gitignore is not read either


def test_helpers_refuse_a_symlink_at_any_component(tmp_path: Path) -> None:
    root, outside = _layout(tmp_path)
    (root / "link").symlink_to(outside)
    (root / "zzz" / "inner").symlink_to(outside / "deeper")
    for rel in ("link/s0.txt", "zzz/inner/d0.txt", "link/deeper/d0.txt"):
        try:
            fd, _st = open_file_beneath(root, rel)
        except OSError:
            continue
        os.close(fd)
        raise AssertionError(f"{rel} was opened through a symlink")
    for rel_dir in ("link", "zzz/inner", "link/deeper"):
        try:
            os.close(open_dir_beneath(root, rel_dir))
        except OSError:
            continue
        raise AssertionError(f"{rel_dir} was opened through a symlink")
    assert lstat_beneath(root, "link/s0.txt") is None
    assert lstat_beneath(root, "zzz/s0.txt") is not None
    for bad in ("../outside/s0.txt", "zzz/../../outside/s0.txt", "/etc/passwd", "a//b"):
        try:
            fd, _st = open_file_beneath(root, bad)
        except OSError:
            continue
        os.close(fd)
        raise AssertionError(f"{bad!r} was opened")
