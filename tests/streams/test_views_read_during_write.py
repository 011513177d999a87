"""A read of the views does not wait for the sink's write transaction in flight: each
reading thread reads the last committed snapshot (WAL) on a connection of its own. Reads
were counted under the writer's lock, so every search waited for the batch being applied
to commit (a 2 s write held a read for 1.8 s)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from streams.stores.views.fields import CONTENT_FIELDS
from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore

LIVENESS_S = 20.0  # a bound on a hang, not a timing: the read needs no more than a query


def test_a_read_completes_while_a_write_is_in_flight(tmp_path: Path) -> None:
    views = ViewStore(tmp_path / "views.db", default_registry())
    inside, release = threading.Event(), threading.Event()

    def slow_write(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE repos SET last_ingested = 1")
        inside.set()
        release.wait(LIVENESS_S)

    writer = threading.Thread(target=views._write, args=(slow_write,))
    writer.start()
    try:
        assert inside.wait(LIVENESS_S)
        got: list[object] = []

        def search_reads() -> None:  # what a search does first: its mirror, then a read
            got.append(views.mirror(CONTENT_FIELDS).spec)
            got.append(views.read(lambda c: c.execute("SELECT 7").fetchone()[0]))

        reader = threading.Thread(target=search_reads)
        reader.start()
        reader.join(LIVENESS_S)
        assert got == [CONTENT_FIELDS, 7], "the read waited for the write to commit"
        assert writer.is_alive()
    finally:
        release.set()
        writer.join()
        views.close()
