"""What only the SQLite backend promises: durability, its file layout, URLs, and threading."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import zlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from unittest.mock import patch

import pytest

from schemas.topics import TopicSpec
from streams.errors import EventLogError
from streams.eventlog import compaction
from streams.eventlog.base import EventLog, LogRecord, StoredRecord, Transaction
from streams.eventlog.factory import open_event_log, sqlite_path
from streams.eventlog.sqlite import PAGE_SIZE, SqliteEventLog
from streams.eventlog.sqlite_values import (
    BLOB_MIN_BYTES,
    DICT_SAMPLES,
    PACK_MIN_BYTES,
    SPLICED,
    SPLICED_DICT,
    ZLIB_DICT,
)

KV = TopicSpec(name="t.kv", key="repoId/path", partitions=2, cleanup="compact")
ONE = TopicSpec(name="t.one", key="repoId/path", partitions=1, cleanup="compact")
pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def open_log(path: Path, **opts: object) -> SqliteEventLog:
    log = open_event_log(f"sqlite:///{path}", **opts)
    assert isinstance(log, SqliteEventLog)
    return log


def peek(path: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    """Look at the file through a second connection (WAL lets it read alongside the log)."""
    with sqlite3.connect(path) as conn:
        return conn.execute(sql, args).fetchall()


@asynccontextmanager
async def opened(path: Path, **opts: object) -> AsyncIterator[SqliteEventLog]:
    log = open_log(path, **opts)
    try:
        yield log
    finally:
        await log.close()


async def pragma(log: SqliteEventLog, name: str) -> object:
    """Ask on the worker thread: the connection lives there."""
    return await log._run(lambda: log._conn.execute(f"PRAGMA {name}").fetchone()[0])


async def read_all(log: EventLog, topic: str, partition: int = 0) -> list[StoredRecord]:
    return await log.read(topic, partition, 0, 1_000_000)


async def test_everything_survives_reopen(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    async with opened(path, tombstone_retention_ms=0) as log:
        await log.create_topics([KV, ONE])
        placed = await log.append(ONE.name, [LogRecord("r/a", b"1", 7), LogRecord("r/b", None)])
        await log.commit("g", {(ONE.name, 0): 1, (KV.name, 1): 4})
        first_id = log.instance_id
    async with opened(path) as log:
        assert log.instance_id == first_id
        await log.create_topics([KV, ONE])  # idempotent against what is stored
        assert await log.partitions(KV.name) == 2
        with pytest.raises(EventLogError, match="partitions 2 != requested 3"):
            await log.create_topics([KV.model_copy(update={"partitions": 3})])
        got = await read_all(log, ONE.name)
        assert (got[0].offset, got[0].key, got[0].value, got[0].timestamp_ms) == (0, "r/a", b"1", 7)
        assert [r.value for r in got] == [b"1", None] and placed == [(0, 0), (0, 1)]
        assert await log.end_offset(ONE.name, 0) == 2
        assert await log.committed("g", ONE.name, 0) == 1
        assert await log.committed("g", KV.name, 1) == 4
        assert await log.append(ONE.name, [LogRecord("r/c", b"3")]) == [(0, 2)]
    path.unlink()
    for extra in tmp_path.glob("log.db-*"):
        extra.unlink()
    async with opened(path) as log:  # a recreated log is recognisably another one
        assert log.instance_id != first_id
        assert peek(path, "SELECT value FROM meta WHERE name='instance_id'") == [(log.instance_id,)]


async def test_file_settings_and_range_scan(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    async with opened(path) as log:
        await log.create_topics([ONE])
        assert peek(path, "PRAGMA journal_mode") == [("wal",)]
        assert peek(path, "PRAGMA auto_vacuum") == [(2,)]  # INCREMENTAL
        assert await pragma(log, "synchronous") == 1  # NORMAL
        plan = peek(
            path,
            "EXPLAIN QUERY PLAN SELECT offset, key, ts_ms, value FROM records WHERE topic=? "
            "AND partition=? AND offset>=? ORDER BY offset LIMIT ?",
            ONE.name,
            0,
            5,
            10,
        )
        detail = " ".join(str(row[-1]) for row in plan)
        assert "USING INDEX sqlite_autoindex_records_1 (topic=? AND partition=? AND offset>?)" in (
            detail
        )
        assert "TEMP B-TREE" not in detail
        plan = peek(path, f"EXPLAIN QUERY PLAN {compaction.NEW_KEYS}", ONE.name, 0, 5, 10)
        detail = " ".join(str(row[-1]) for row in plan)  # compaction reads only its chunk:
        assert "records_1 (topic=? AND partition=? AND offset>? AND offset<?)" in detail
    async with opened(path, synchronous="FULL") as log:
        assert await pragma(log, "synchronous") == 2  # FULL
    with pytest.raises(EventLogError, match="synchronous"):
        open_log(path, synchronous="OFF")


async def test_apply_rolls_back_a_failure_after_the_inserts(tmp_path: Path) -> None:
    """A failure inside the SQLite transaction (after rows were inserted) leaves no trace."""
    async with opened(tmp_path / "log.db") as log:
        await log.create_topics([ONE])
        await log.apply(Transaction(appends=[(ONE.name, LogRecord("r/a", b"1"))]))
        tx = Transaction()
        for i in range(100):
            tx.append(ONE.name, LogRecord(f"r/{i}", b"x" * 1000))
        tx.commit("step", ONE.name, 0, 1)

        def explode(_: object) -> None:
            raise sqlite3.OperationalError("disk I/O error (simulated)")

        with patch.object(log, "_write_offsets", explode), pytest.raises(EventLogError):
            await log.apply(tx)
        assert [r.offset for r in await read_all(log, ONE.name)] == [0]
        assert await log.end_offset(ONE.name, 0) == 1
        assert await log.committed("step", ONE.name, 0) == 0
        assert await log.apply(tx) == [(0, i + 1) for i in range(100)]
        assert await log.committed("step", ONE.name, 0) == 1


async def test_urls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert sqlite_path("sqlite:///rel/log.db") == Path("rel/log.db")
    assert sqlite_path(f"sqlite:///{tmp_path}/abs.db") == tmp_path / "abs.db"
    async with open_event_log("sqlite:///rel/log.db") as log:
        assert log.url == "sqlite:///rel/log.db"
    assert (tmp_path / "rel" / "log.db").is_file()
    (tmp_path / "adir.db").mkdir()
    with pytest.raises(EventLogError, match="cannot open event log"):
        open_event_log(f"sqlite:///{tmp_path}/adir.db")


async def test_concurrent_calls_are_serialised(tmp_path: Path) -> None:
    async with opened(tmp_path / "log.db") as log:
        await log.create_topics([ONE])
        batches, _ = await asyncio.gather(
            asyncio.gather(
                *(
                    log.append(ONE.name, [LogRecord(f"r/{t}", b"%d" % i) for i in range(10)])
                    for t in range(50)
                )
            ),
            asyncio.gather(*(log.read(ONE.name, 0, 0) for _ in range(20))),
        )
        offsets = sorted(off for batch in batches for _, off in batch)
        assert offsets == list(range(500))
        assert [r.offset for r in await read_all(log, ONE.name)] == list(range(500))


async def test_small_compaction_steps_never_resurrect_a_deleted_key(tmp_path: Path) -> None:
    """A tombstone goes only after every older version of its key is gone, however the
    work is chunked; compaction state is persisted, so this holds across reopen too."""
    path = tmp_path / "log.db"
    with patch.object(compaction, "CHUNK_OFFSETS", 1), patch.object(compaction, "DELETE_BATCH", 1):
        async with opened(path, tombstone_retention_ms=0, background_compaction=False) as log:
            await log.create_topics([ONE])
            await log.append(ONE.name, [LogRecord(f"r/{k}", b"1") for k in "xyzaz"])
            await log.append(ONE.name, [LogRecord("r/a", None), LogRecord("r/b", None)])
            assert await log.compact(ONE.name) == 4  # r/z@2, r/a@3 and both tombstones
        async with opened(path, tombstone_retention_ms=0) as log:
            assert [(r.offset, r.key) for r in await read_all(log, ONE.name)] == [
                (0, "r/x"),
                (1, "r/y"),
                (4, "r/z"),
            ]
            assert peek(path, "SELECT cleaned_upto FROM partitions WHERE topic=?", ONE.name) == [
                (7,)
            ]


async def test_big_deletion_gives_space_back(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    body = random.Random(5).randbytes(16_384)  # incompressible: stored at its full size
    async with opened(path, tombstone_retention_ms=0, background_compaction=False) as log:
        await log.create_topics([ONE])
        await log.append(ONE.name, [LogRecord(f"r/{i}", body) for i in range(1000)])
        before = peek(path, "PRAGMA page_count")[0][0]
        await log.append(ONE.name, [LogRecord(f"r/{i}", None) for i in range(1000)])
        assert await log.compact(ONE.name) == 2000
        after = peek(path, "PRAGMA page_count")[0][0]
        assert isinstance(before, int) and isinstance(after, int)
        assert after < before // 4, (before, after)


async def test_close_stops_background_compaction(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "log.db"
    with patch.object(compaction, "CHUNK_OFFSETS", 1):  # a long queue of tiny steps
        log = open_log(path, compact_threshold=10)
        await log.create_topics([ONE])
        for _ in range(5):
            await log.append(ONE.name, [LogRecord(f"r/{i % 7}", b"v") for i in range(200)])
        await log.close()
    assert not any(t.is_alive() for t in log._executor._threads)
    assert "failed" not in caplog.text
    with pytest.raises(EventLogError, match="closed"):
        await log.append(ONE.name, [LogRecord("r/x", b"v")])
    async with opened(path) as again:  # whatever was compacted, the fold is intact
        latest = {r.key: r.value for r in await read_all(again, ONE.name)}
        assert latest == {f"r/{i}": b"v" for i in range(7)}
        assert await again.end_offset(ONE.name, 0) == 1000


STRUCTURE = json.dumps(
    {
        "v": 1,
        "type": "structure",
        "repo_id": "spring-framework",
        "path": "spring-core/src/main/java/org/springframework/core/io/Resource.java",
        "digest": "xx128:4ee7437f7b5d832e0b3e1aeed7067b66",
        "language": "java",
        "size": 7021,
        "line_count": 230,
        "mtime_ns": 1796297768634436000,
        "binary": False,
        "generated": False,
        "vendored": False,
        "truncated": False,
        "decode_errors": False,
        "source_revision": None,
        "ingested_at": 1796297768.634436,
        "indexed_chars": None,
    },
    separators=(",", ":"),
).encode()


async def test_large_values_are_stored_compressed_and_read_back_as_appended(
    tmp_path: Path,
) -> None:
    path = tmp_path / "log.db"
    lines = [f"def handler_{n}(request): return request.reply({n})" for n in range(400)]
    body = json.dumps({"path": "app.py", "lines": lines}).encode()  # no long literal
    noise = random.Random(3).randbytes(4 * PACK_MIN_BYTES)  # would grow: kept as it is
    small = b"x" * (PACK_MIN_BYTES - 1)
    async with opened(path) as log:
        await log.create_topics([ONE])
        await log.append(ONE.name, [LogRecord("a", body), LogRecord("b", noise)])
        await log.append(ONE.name, [LogRecord("c", small), LogRecord("d", None)])
        await log.append(ONE.name, [LogRecord("e", STRUCTURE)])
        values = [r.value for r in await read_all(log, ONE.name)]
        assert values == [body, noise, small, None, STRUCTURE]
    stored = peek(path, "SELECT key, packed, length(value) FROM records ORDER BY offset")
    assert stored[0][1] == 1 and int(str(stored[0][2])) * 4 < len(body), stored  # packs > 4x
    assert stored[1:4] == [("b", None, len(noise)), ("c", None, len(small)), ("d", None, None)]
    # a record as small as a file's structure record is packed too (1.5x)
    assert stored[4][1] == 1 and int(str(stored[4][2])) * 3 < len(STRUCTURE) * 2, stored


SOURCE = "".join(
    f'def handler_{n}(request):\n    return request.reply("{n}\\t", \'é\', "\\u2028")\n'
    for n in range(300)
)
TWO = TopicSpec(name="t.two", key="repoId/path", partitions=1, cleanup="compact")


async def test_a_long_literal_in_two_topics_is_stored_once_and_read_back_exactly(
    tmp_path: Path,
) -> None:
    path = tmp_path / "log.db"
    files = json.dumps({"path": "app.py", "body": SOURCE, "size": 9}).encode()
    content = json.dumps({"body": SOURCE, "terms": "def handler request " * 200}).encode()
    odd = b'{"x": "' + b"\\" * BLOB_MIN_BYTES + b'"} "' + b"\x00\xff" * BLOB_MIN_BYTES  # no end
    async with opened(path) as log:
        await log.create_topics([ONE, TWO])
        await log.append(ONE.name, [LogRecord("r/app.py", files), LogRecord("r/odd", odd)])
        await log.append(TWO.name, [LogRecord("r/app.py", content)])
        assert [r.value for r in await read_all(log, ONE.name)] == [files, odd]
        assert [r.value for r in await read_all(log, TWO.name)] == [content]
    blobs = peek(path, "SELECT refs, length(value) FROM blobs ORDER BY id")
    body_blobs = [refs for refs, _ in blobs if refs == 2]
    assert body_blobs == [2], blobs  # the body once, named by both records
    stored = peek(path, "SELECT packed, length(value) FROM records ORDER BY topic, offset")
    assert stored[0][0] == SPLICED and int(str(stored[0][1])) < 100, stored  # the frame only
    async with opened(path) as log:  # reopened: read from the file alone
        assert [r.value for r in await read_all(log, TWO.name)] == [content]


def structure_value(n: int) -> bytes:
    """A small JSON record like a file's structure record: the same field names every time."""
    return json.dumps(
        {
            "path": f"src/pkg{n % 7}/module_{n}.py",
            "language": "python",
            "lines": n * 3 + 1,
            "outline": [
                {"kind": "function", "name": f"handler_{n}_{k}", "line": k} for k in range(4)
            ],
            "note": "ü\u2028\\" * (n % 3),
        }
    ).encode()


async def test_a_topic_packs_with_its_dictionary_once_it_has_one_and_reads_back_exactly(
    tmp_path: Path,
) -> None:
    path = tmp_path / "log.db"
    first = [structure_value(n) for n in range(DICT_SAMPLES)]
    later = [structure_value(n) for n in range(DICT_SAMPLES, DICT_SAMPLES + 20)]
    spliced = json.dumps({"path": "src/app.py", "language": "python", "body": SOURCE}).encode()
    async with opened(path, background_compaction=False) as log:
        await log.create_topics([ONE, TWO])
        await log.append(ONE.name, [LogRecord(f"r/{n}", v) for n, v in enumerate(first)])
        assert peek(path, "SELECT topic FROM dictionaries") == [(ONE.name,)]
        await log.append(ONE.name, [LogRecord("r/x", v) for v in later])
        await log.append(ONE.name, [LogRecord("r/spliced", spliced)])
        await log.append(TWO.name, [LogRecord("r/x", later[0])])  # no dictionary of its own
        assert [r.value for r in await read_all(log, ONE.name)] == [*first, *later, spliced]
    stored = peek(
        path, "SELECT packed, length(value) FROM records WHERE topic = ? ORDER BY offset", ONE.name
    )
    assert {p for p, _ in stored[:DICT_SAMPLES]} == {1}
    assert {p for p, _ in stored[DICT_SAMPLES:-1]} == {ZLIB_DICT} and stored[-1][0] == SPLICED_DICT
    plain = len(zlib.compress(later[0], 6))
    assert int(str(stored[DICT_SAMPLES][1])) * 2 < plain, (stored[DICT_SAMPLES], plain)
    assert peek(path, "SELECT packed FROM records WHERE topic = ?", TWO.name) == [(1,)]
    async with opened(path) as log:  # reopened: the dictionary comes from the file
        assert [r.value for r in await read_all(log, ONE.name)][-3:] == [*later[-2:], spliced]
        await log.append(ONE.name, [LogRecord("r/y", later[1])])
        assert (await read_all(log, ONE.name))[-1].value == later[1]
    assert peek(path, "SELECT count(*) FROM dictionaries") == [(1,)]


async def test_long_literals_pack_with_their_own_dictionary_and_read_back_exactly(
    tmp_path: Path,
) -> None:
    path = tmp_path / "log.db"
    bodies = [SOURCE.replace("handler", f"handler{n}")[: BLOB_MIN_BYTES * 2] for n in range(80)]
    values = [json.dumps({"path": f"m{n}.py", "body": b}).encode() for n, b in enumerate(bodies)]
    async with opened(path, background_compaction=False) as log:
        await log.create_topics([ONE])
        await log.append(ONE.name, [LogRecord(f"r/{n}", v) for n, v in enumerate(values[:64])])
        await log.append(ONE.name, [LogRecord(f"r/{n}", v) for n, v in enumerate(values[64:])])
        assert [r.value for r in await read_all(log, ONE.name)] == values
    assert peek(path, "SELECT topic FROM dictionaries ORDER BY topic") == [
        ("(blobs)",),
        (ONE.name,),
    ]
    packings = [p for (p,) in peek(path, "SELECT packed FROM blobs ORDER BY id")]
    assert set(packings[:64]) == {1} and set(packings[64:]) == {ZLIB_DICT}, packings
    async with opened(path) as log:  # reopened: both dictionaries come from the file
        assert [r.value for r in await read_all(log, ONE.name)] == values


async def test_a_record_naming_a_missing_dictionary_is_an_error_not_other_bytes(
    tmp_path: Path,
) -> None:
    path = tmp_path / "log.db"
    values = [structure_value(n) for n in range(DICT_SAMPLES + 1)]
    async with opened(path, background_compaction=False) as log:
        await log.create_topics([ONE])
        await log.append(ONE.name, [LogRecord(f"r/{n}", v) for n, v in enumerate(values)])
        await log.append(ONE.name, [LogRecord("r/z", values[0])])
    with sqlite3.connect(path) as conn:  # another dictionary under the same id
        conn.execute("UPDATE dictionaries SET value = ?", (b"something else entirely" * 40,))
    async with opened(path) as log:
        with pytest.raises(EventLogError, match="does not unpack with its dictionary"):
            await read_all(log, ONE.name)


async def test_a_blob_goes_with_the_last_record_that_names_it(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    first = json.dumps({"body": SOURCE}).encode()
    second = json.dumps({"body": SOURCE, "v": 2}).encode()
    async with opened(path, tombstone_retention_ms=0, background_compaction=False) as log:
        await log.create_topics([ONE, TWO])
        await log.append(ONE.name, [LogRecord("r/a", first), LogRecord("r/a", second)])
        await log.append(TWO.name, [LogRecord("r/a", first)])
        assert peek(path, "SELECT refs FROM blobs") == [(3,)]
        assert await log.compact(ONE.name) == 1  # the older r/a
        assert peek(path, "SELECT refs FROM blobs") == [(2,)]
        assert [r.value for r in await read_all(log, ONE.name)] == [second]
        await log.append(ONE.name, [LogRecord("r/a", None)])
        await log.append(TWO.name, [LogRecord("r/a", None)])
        await log.compact(ONE.name)
        assert peek(path, "SELECT refs FROM blobs") == [(1,)]
        assert [r.value for r in await read_all(log, TWO.name)] == [first, None]
        await log.compact(TWO.name)
        assert peek(path, "SELECT count(*) FROM blobs") == [(0,)]


async def test_a_log_written_before_blobs_opens_reads_and_splices_new_values(
    tmp_path: Path,
) -> None:
    path = tmp_path / "log.db"
    old = json.dumps({"body": SOURCE, "old": True}).encode()
    async with opened(path) as log:
        await log.create_topics([ONE])
    with sqlite3.connect(path) as conn:  # the layout and a zlib value as the release before wrote
        conn.execute("DROP TRIGGER records_release_blobs")
        conn.execute("DROP TABLE blobs")
        conn.execute("ALTER TABLE records DROP COLUMN blob_ids")
        conn.execute(
            "INSERT INTO records(topic, partition, offset, key, ts_ms, packed, value) "
            "VALUES (?, 0, 0, 'r/old', 1, 1, ?)",
            (ONE.name, zlib.compress(old)),
        )
        conn.execute("UPDATE partitions SET next_offset = 1 WHERE topic = ?", (ONE.name,))
    new = json.dumps({"body": SOURCE, "old": False}).encode()
    async with opened(path) as log:
        await log.append(ONE.name, [LogRecord("r/new", new)])
        assert [r.value for r in await read_all(log, ONE.name)] == [old, new]
    assert peek(path, "SELECT key, packed FROM records ORDER BY offset") == [
        ("r/old", 1),
        ("r/new", SPLICED),
    ]
    assert peek(path, "SELECT refs FROM blobs") == [(1,)]


async def test_a_new_log_has_large_pages(tmp_path: Path) -> None:
    async with opened(tmp_path / "log.db") as log:
        assert await pragma(log, "page_size") == PAGE_SIZE
        assert await pragma(log, "wal_autocheckpoint") == (4 << 20) // PAGE_SIZE


async def test_a_log_written_before_packing_opens_and_reads(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    async with opened(path) as log:
        await log.create_topics([ONE])
        await log.append(ONE.name, [LogRecord("old", b"{}" * PACK_MIN_BYTES)])
    with sqlite3.connect(path) as conn:  # the table and value as an earlier release wrote them
        conn.execute("ALTER TABLE records DROP COLUMN packed")
        conn.execute("UPDATE records SET value = ?", (b"{}" * PACK_MIN_BYTES,))
    body = b"[1]" * PACK_MIN_BYTES
    async with opened(path) as log:
        await log.append(ONE.name, [LogRecord("new", body)])
        values = [r.value for r in await read_all(log, ONE.name)]
    assert values == [b"{}" * PACK_MIN_BYTES, body]
    assert peek(path, "SELECT key, packed FROM records ORDER BY offset") == [
        ("old", None),
        ("new", 1),
    ]


async def test_compaction_finds_a_keys_records_by_its_hash_and_tells_keys_of_one_hash_apart(
    tmp_path: Path,
) -> None:
    path = tmp_path / "log.db"
    async with opened(path, tombstone_retention_ms=0, background_compaction=False) as log:
        await log.create_topics([ONE])
        indexes = {name for (name,) in peek(path, "SELECT name FROM sqlite_master")}
        assert "records_by_key_hash" in indexes and "records_by_key" not in indexes
        plan = peek(path, f"EXPLAIN QUERY PLAN {compaction._DELETE_OLDER}", ONE.name, 0, "r/a", 1)
        assert "records_by_key_hash (topic=? AND partition=? AND key_hash=?" in str(plan), plan
        with patch.object(compaction, "key_hash", lambda key: 7):  # every key one hash
            await log.append(ONE.name, [LogRecord("r/a", b"1"), LogRecord("r/b", b"2")])
            await log.append(ONE.name, [LogRecord("r/a", b"3")])
            assert await log.compact(ONE.name) == 1
        got = [(r.key, r.value) for r in await read_all(log, ONE.name)]
        assert got == [("r/b", b"2"), ("r/a", b"3")]


async def test_a_log_whose_index_held_the_keys_opens_with_their_hashes(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    async with opened(path) as log:
        await log.create_topics([ONE])
        await log.append(ONE.name, [LogRecord("r/a", b"1"), LogRecord("r/a", b"2")])
    with sqlite3.connect(path) as conn:  # the column and index as the release before had them
        conn.execute("DROP INDEX records_by_key_hash")
        conn.execute("ALTER TABLE records DROP COLUMN key_hash")
        conn.execute(
            "CREATE INDEX records_by_key ON records(topic, partition, key, offset)"
            " WHERE key IS NOT NULL"
        )
    async with opened(path, tombstone_retention_ms=0, background_compaction=False) as log:
        hashes = peek(path, "SELECT key_hash FROM records")
        assert hashes == [(compaction.key_hash("r/a"),)] * 2
        assert {n for (n,) in peek(path, "SELECT name FROM sqlite_master")} >= {
            "records_by_key_hash"
        }
        assert await log.compact(ONE.name) == 1
        assert [r.value for r in await read_all(log, ONE.name)] == [b"2"]
    assert peek(path, "SELECT name FROM sqlite_master WHERE name = 'records_by_key'") == []
