"""Which process holds a view store's write lock (QA: the views stalled behind a
connection left in a transaction, and the warning said only `database is locked`)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from streams.errors import StoreError, store_busy
from streams.stores.lock_holder import write_lock_holder
from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore

HOLD = (
    "import sqlite3, sys, time\n"
    "conn = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
    "conn.execute('BEGIN IMMEDIATE')\n"
    "print('held', flush=True)\n"
    "time.sleep(120)\n"
)

needs_proc_locks = pytest.mark.skipif(
    not os.path.exists("/proc/locks"), reason="the kernel's lock list is Linux's"
)


@pytest.fixture
def views(tmp_path: Path) -> Iterator[ViewStore]:
    store = ViewStore(tmp_path / "views.db", default_registry())
    yield store
    store.close()


@pytest.fixture
def holder(views: ViewStore) -> Iterator[subprocess.Popen[str]]:
    """Another process, in a write transaction on the views (a `sqlite3` shell would be)."""
    child = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(views.path)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "held"
    yield child
    child.kill()
    child.wait()


@needs_proc_locks
def test_the_process_holding_the_write_lock_is_named(
    views: ViewStore, holder: subprocess.Popen[str]
) -> None:
    said = write_lock_holder(views.path)
    assert said is not None and f"pid {holder.pid} " in said and "BEGIN IMMEDIATE" in said


@needs_proc_locks
def test_no_holder_is_named_when_nobody_writes(views: ViewStore) -> None:
    assert write_lock_holder(views.path) is None
    assert write_lock_holder(":memory:") is None


@needs_proc_locks
@pytest.mark.slow  # waits out the views' 5 s busy timeout once
def test_a_locked_write_names_the_holder(views: ViewStore, holder: subprocess.Popen[str]) -> None:
    with pytest.raises(StoreError) as raised:
        views.apply([], {("t", 0): 1})
    assert store_busy(raised.value)
    assert f"pid {holder.pid} " in str(raised.value), raised.value
