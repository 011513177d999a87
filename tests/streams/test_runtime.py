"""The embedded runtime over real backends: dead letters, no stalls, replay equality."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from schemas import codec, topics
from schemas.events import FileUpsert, RepoRegistration, file_key
from streams.eventlog.base import EventLog, LogRecord
from streams.eventlog.factory import open_event_log
from streams.runtime.embedded import FIRST_READ, EmbeddedRuntime
from streams.stores.views.handlers import default_registry
from streams.stores.views.search import keyword_hits
from streams.stores.views.store import ViewStore
from streams.topology import pipeline_steps

pytestmark = pytest.mark.anyio


def upsert(path: str, body: str, repo: str = "r") -> LogRecord:
    event = FileUpsert(
        repo_id=repo,
        path=path,
        digest=f"xx128:{abs(hash(body)):032x}",
        size=len(body),
        mtime_ns=1,
        body=body,
        observed_at=1.0,
    )
    return LogRecord(key=file_key(repo, path), value=codec.encode(event))


async def open_log(kind: str, tmp_path: Path) -> EventLog:
    url = "memory://" if kind == "memory" else f"sqlite:///{tmp_path / 'log.db'}"
    log = open_event_log(url)
    await log.create_topics(topics.CATALOGUE)
    return log


async def dead_letters(log: EventLog) -> list[dict[str, object]]:
    found = []
    for record in await log.read(topics.DEADLETTER.name, 0, 0, 100):
        assert record.value is not None
        found.append(json.loads(record.value))
    return found


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
async def test_poison_events_go_to_dead_letters_and_never_stall(kind: str, tmp_path: Path) -> None:
    log = await open_log(kind, tmp_path)
    views = ViewStore(tmp_path / "views.db", default_registry())
    try:
        registration = RepoRegistration(repo_id="r", root="/x", registered_at=1.0)
        await log.append(topics.REPOS.name, [LogRecord("r", codec.encode(registration))])
        await log.append(
            topics.FILES.name,
            [
                upsert("a.py", "def alpha(): pass"),
                LogRecord(key="r/bad.py", value=b"{not json"),
                LogRecord(key="r/wrongkey.py", value=upsert("other.py", "x").value),
                upsert("b.py", "def bravo(): pass"),
            ],
        )
        # A poison record straight on a record topic: the sink must skip it, not stall.
        await log.append(topics.STRUCTURE.name, [LogRecord(key="r/c.py", value=b"\xff\x00")])
        runtime = EmbeddedRuntime(log, views)
        await runtime.run_until_idle()

        letters = await dead_letters(log)
        keys = sorted(str(letter["key"]) for letter in letters)
        # bad.py fails in every processor step; wrongkey in every one; c.py in the sink
        steps = len(pipeline_steps())
        assert keys == ["r/bad.py"] * steps + ["r/c.py"] + ["r/wrongkey.py"] * steps
        for letter in letters:
            assert letter["error"] and letter["error_type"]
        raw = next(x for x in letters if x["key"] == "r/bad.py")["value_b64"]
        assert base64.b64decode(str(raw)) == b"{not json"  # nothing lost
        assert [h.path for h in keyword_hits(views, "r", "alpha bravo", 10)] == ["a.py", "b.py"]
        assert (await runtime.lag()).behind == 0
    finally:
        views.close()
        await log.close()


async def test_replay_into_fresh_views_rebuilds_the_same_state(tmp_path: Path) -> None:
    log = await open_log("sqlite", tmp_path)
    registration = RepoRegistration(repo_id="r", root="/x", registered_at=1.0)
    await log.append(topics.REPOS.name, [LogRecord("r", codec.encode(registration))])
    await log.append(
        topics.FILES.name, [upsert(f"m{n}.py", f"def f{n}(): pass") for n in range(40)]
    )
    await log.append(topics.FILES.name, [upsert("m3.py", "def changed(): pass")])
    await log.append(topics.FILES.name, [LogRecord(key=file_key("r", "m4.py"), value=None)])

    def state(views: ViewStore) -> tuple[object, ...]:
        files = [(f.path, f.digest) for f in views.files_under("r", "", None, 1000)]
        hits = [(h.path, round(h.score, 9)) for h in keyword_hits(views, "r", "f7 changed", 10)]
        return files, hits, views.file_count("r")

    first = ViewStore(tmp_path / "views-1.db", default_registry())
    await EmbeddedRuntime(log, first).run_until_idle()
    second = ViewStore(tmp_path / "views-2.db", default_registry())
    await EmbeddedRuntime(log, second).run_until_idle()  # the processors' groups are done
    try:
        assert state(first) == state(second)
        assert first.file_count("r") == 39 and first.get_file("r", "m4.py") is None
    finally:
        first.close()
        second.close()
        await log.close()


async def test_rebuild_repo_restores_the_views_from_the_log(tmp_path: Path) -> None:
    log = await open_log("sqlite", tmp_path)
    views = ViewStore(tmp_path / "views.db", default_registry())
    try:
        for repo in ("r", "s"):
            registration = RepoRegistration(repo_id=repo, root="/x", registered_at=1.0)
            await log.append(topics.REPOS.name, [LogRecord(repo, codec.encode(registration))])
            await log.append(
                topics.FILES.name, [upsert(f"{n}.py", f"token{n}", repo=repo) for n in range(5)]
            )
        runtime = EmbeddedRuntime(log, views)
        await runtime.run_until_idle()
        before = [(f.path, f.digest) for f in views.files_under("r", "", None, 100)]
        swept = await runtime.rebuild_repo("r")
        assert sum(swept.values()) >= 10  # 5 files + 5 content rows at least
        assert [(f.path, f.digest) for f in views.files_under("r", "", None, 100)] == before
        assert views.file_count("s") == 5  # other repositories untouched
        assert views.get_repo("r") is not None
    finally:
        views.close()
        await log.close()


async def test_a_step_reads_small_batches_first_then_full_ones(tmp_path: Path) -> None:
    """The first files reach the views after one small batch (start fast): a step's reads
    start at FIRST_READ records per partition and double each pass up to batch_size."""
    log = await open_log("sqlite", tmp_path)
    views = ViewStore(tmp_path / "views.db", default_registry())
    try:
        registration = RepoRegistration(repo_id="r", root="/x", registered_at=1.0)
        await log.append(topics.REPOS.name, [LogRecord("r", codec.encode(registration))])
        files = [upsert(f"m{i}.py", f"def handler_{i}(): pass") for i in range(300)]
        await log.append(topics.FILES.name, files)
        runtime = EmbeddedRuntime(log, views, batch_size=256)
        first = next(s for s in runtime.steps if topics.FILES.name in s.inputs)
        partitions = await log.partitions(topics.FILES.name)
        reads = []
        while read := await runtime.run_step(first):
            reads.append(read)
        assert reads[0] <= partitions * FIRST_READ < 300
        assert reads[1] <= partitions * 2 * FIRST_READ and sum(reads) == 300
        await runtime.run_until_idle()
        assert views.file_count("r") == 300
    finally:
        views.close()
        await log.close()


async def test_a_batch_of_large_files_is_cut_by_bytes(tmp_path: Path) -> None:
    """Many large files at once: a step's batch stops at batch_bytes of record values (at
    least one record), so memory is bounded by bytes, not by batch_size files; nothing is lost."""
    log = await open_log("sqlite", tmp_path)
    views = ViewStore(tmp_path / "views.db", default_registry())
    try:
        registration = RepoRegistration(repo_id="r", root="/x", registered_at=1.0)
        await log.append(topics.REPOS.name, [LogRecord("r", codec.encode(registration))])
        line = "value = compute(value)  # filler\n"
        body = line * (256 * 1024 // len(line))
        files = [upsert(f"big{i}.py", f"{body}marker_{i} = 1\n") for i in range(8)]
        record_bytes = max(len(f.value or b"") for f in files)
        await log.append(topics.FILES.name, files)
        runtime = EmbeddedRuntime(log, views, batch_size=256, batch_bytes=2 * record_bytes + 100)
        first = next(s for s in runtime.steps if topics.FILES.name in s.inputs)
        reads = []
        while read := await runtime.run_step(first):
            reads.append(read)
        assert reads == [2, 2, 2, 2]  # 8 records under batch_size, but only 2 fit per batch
        await runtime.run_until_idle()
        assert views.file_count("r") == 8
        assert [h.path for h in keyword_hits(views, "r", "marker_7", 1)] == ["big7.py"]
    finally:
        views.close()
        await log.close()


async def test_batch_bytes_must_be_positive(tmp_path: Path) -> None:
    log = await open_log("memory", tmp_path)
    views = ViewStore(tmp_path / "views.db", default_registry())
    try:
        with pytest.raises(ValueError, match="batch_bytes"):
            EmbeddedRuntime(log, views, batch_bytes=0)
    finally:
        views.close()
        await log.close()


async def test_records_applied_while_lag_is_read_never_look_ahead_of_the_log(
    tmp_path: Path,
) -> None:
    """A batch appended and applied between lag()'s two reads (as the runtime's own loop does
    under load) once made the views look ahead of the log for an instant."""
    log = await open_log("sqlite", tmp_path)
    views = ViewStore(tmp_path / "views.db", default_registry())
    try:
        registration = RepoRegistration(repo_id="r", root="/x", registered_at=1.0)
        await log.append(topics.REPOS.name, [LogRecord("r", codec.encode(registration))])
        await log.append(topics.FILES.name, [upsert("a.py", "def alpha(): pass")])
        runtime = EmbeddedRuntime(log, views)
        await runtime.run_until_idle()
        positions = log.positions
        moved = False

        async def positions_while_the_pipeline_moves(*args: Any, **kwargs: Any) -> Any:
            nonlocal moved
            read = await positions(*args, **kwargs)
            if not moved:  # one more file goes all the way in right after this read
                moved = True
                await log.append(topics.FILES.name, [upsert("b.py", "def bravo(): pass")])
                await runtime.run_until_idle()
            return read

        log.positions = positions_while_the_pipeline_moves  # type: ignore[method-assign]
        await runtime.lag()
        assert moved
        assert "views_ahead" not in runtime.health.faults(), runtime.health.faults()
        assert (await runtime.lag()).behind == 0
    finally:
        views.close()
        await log.close()
