"""An HNSW build of the test Qdrant facade's engine, off the facade's lock and off its process.

qdrant-edge's `optimize()` holds the GIL for its whole run (a 20,000-point shard: 21 s during
which no other thread of the process ran), so building in a thread would stall every request
as surely as holding the facade's lock does. As a Qdrant server's optimizer works on copies
of segments while the originals serve, a build here is:

1. under the lock, `begin`: flush the collection's shard, copy its folder to the other of the
   collection's two shard folders and start journaling every update the collection takes;
2. off the lock, `run_build`: a child process loads the copy, optimizes it (HNSW above the
   indexing threshold) and flushes it, while requests go on against the live shard; then
   `open_built` opens the copy where it will serve and replays the journal so far;
3. under the lock, the engine's `finish`: replay the journal's tail, serve the built shard and
   record its folder in collection.json; off the lock again, `retire` closes the replaced
   shard and deletes its folder. A collection dropped (or recreated) meanwhile keeps what it
   has.

At start, `current_folder` names the folder collection.json records and deletes the other
(what a crash mid-build left).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import qdrant_edge as q

SHARD_FOLDERS = ("shard", "shard.b")  # a collection's shard lives in one; a build in the other
# The child starts building once its stdin closes, so a caller can act on it first.
BUILD_SCRIPT = """
import sys, qdrant_edge as q
sys.stdin.read()
shard = q.EdgeShard.load(sys.argv[1])
shard.optimize()
shard.flush()
shard.close()
"""
BUILD_TIMEOUT_S = 3600.0
POLL_S = 0.1  # how often a running build looks at the stop signal


@dataclass
class IndexBuild:
    """One collection's build in progress: the copy being built and the journal of updates
    the live shard took since the copy was made."""

    name: str
    collection: Any  # tests.qdrant_edge_engine.Collection (the identity `finish` checks)
    folder: Path  # the copy, in the folder it will serve from
    journal: list[Any]
    replayed: int = 0  # journal entries already applied to the built shard


def shard_folder(collection_dir: Path, config: dict[str, Any]) -> Path:
    return collection_dir / str(config.get("shard_folder", SHARD_FOLDERS[0]))


def current_folder(collection_dir: Path, config: dict[str, Any]) -> Path:
    """The folder collection.json records; the other one, a build a crash interrupted, goes."""
    current = shard_folder(collection_dir, config)
    for name in SHARD_FOLDERS:
        if name != current.name:
            shutil.rmtree(collection_dir / name, ignore_errors=True)
    return current


def begin(name: str, collection: Any, collection_dir: Path) -> IndexBuild:
    """Copy a collection's flushed shard for a build. Under the caller's lock."""
    current = shard_folder(collection_dir, collection.config)
    (other,) = [n for n in SHARD_FOLDERS if n != current.name]
    folder = collection_dir / other
    shutil.rmtree(folder, ignore_errors=True)
    collection.shard.flush()
    shutil.copytree(current, folder)
    return IndexBuild(name, collection, folder, [])


def run_build(
    build: IndexBuild, stop: threading.Event, started: Callable[[int], None] | None = None
) -> str | None:
    """Optimize the copy in a child process; None once built, else why not (a stopped
    facade kills the child). Off the lock. `started` gets the child's pid before it builds."""
    proc = subprocess.Popen(
        [sys.executable, "-c", BUILD_SCRIPT, str(build.folder)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        if started is not None:
            started(proc.pid)
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.stdin = None  # closed: communicate() below must not flush it
    waited = 0.0
    while proc.poll() is None:
        if stop.wait(POLL_S) or waited > BUILD_TIMEOUT_S:
            proc.kill()
            proc.communicate()
            return "the facade stopped" if stop.is_set() else "the build timed out"
        waited += POLL_S
    _, err = proc.communicate()
    return None if proc.returncode == 0 else f"exit {proc.returncode}: {err[-2000:]}"


def open_built(build: IndexBuild) -> Any:
    """The built copy, opened where it will serve, with the updates journaled so far. Off the
    lock (the journal only grows; `finish` applies the rest under the lock)."""
    shard = q.EdgeShard.load(str(build.folder))
    build.replayed = len(build.journal)
    for op in build.journal[: build.replayed]:
        shard.update(op)
    return shard


def serve(build: IndexBuild, shard: Any, collection_dir: Path) -> Any:
    """Make the built shard the collection's; returns the shard it replaces. Under the lock."""
    c = build.collection
    for op in build.journal[build.replayed :]:
        shard.update(op)
    shard.flush()
    replaced, c.shard = c.shard, shard
    c.config = {**c.config, "shard_folder": build.folder.name}
    write_config(collection_dir, c.config)
    return replaced


def write_config(collection_dir: Path, config: dict[str, Any]) -> None:
    tmp = collection_dir / "collection.json.tmp"
    tmp.write_text(json.dumps(config))
    os.replace(tmp, collection_dir / "collection.json")


def retire(shard: Any, folder: Path) -> None:
    """Close a shard no request can reach any more and delete its folder. Off the lock."""
    if shard is not None:
        shard.close()
    shutil.rmtree(folder, ignore_errors=True)
