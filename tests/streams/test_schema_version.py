"""The event `v` field: a major version this build does not know goes to the dead-letter topic
with a reason that names it, in processor steps and in the view sink alike, and the step goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schemas import codec, topics
from schemas.events import RepoRegistration
from streams.eventlog.base import LogRecord
from streams.runtime.embedded import EmbeddedRuntime
from streams.stores.views.handlers import default_registry
from streams.stores.views.search import keyword_hits
from streams.stores.views.store import ViewStore
from streams.topology import pipeline_steps
from tests.streams.test_runtime import dead_letters, open_log, upsert

pytestmark = pytest.mark.anyio


def with_version(record: LogRecord, v: int) -> LogRecord:
    assert record.value is not None
    body = json.loads(record.value)
    body["v"] = v
    return LogRecord(key=record.key, value=json.dumps(body).encode())


async def test_an_unknown_major_version_is_dead_lettered_with_the_reason(tmp_path: Path) -> None:
    log = await open_log("sqlite", tmp_path)
    views = ViewStore(tmp_path / "views.db", default_registry())
    try:
        registration = RepoRegistration(repo_id="r", root="/x", registered_at=1.0)
        await log.append(topics.REPOS.name, [LogRecord("r", codec.encode(registration))])
        await log.append(
            topics.FILES.name,
            [
                upsert("a.py", "def alpha(): pass"),
                with_version(upsert("future.py", "def future(): pass"), 2),
                upsert("b.py", "def bravo(): pass"),
            ],
        )
        runtime = EmbeddedRuntime(log, views)
        await runtime.run_until_idle()
        # a record from a newer processor straight on a record topic: the sink refuses it too
        partition = topics.partition_for("r/a.py", await log.partitions(topics.STRUCTURE.name))
        structure = await log.read(topics.STRUCTURE.name, partition, 0, 100)
        newer = with_version(LogRecord("r/c.py", structure[0].value), 3)
        await log.append(topics.STRUCTURE.name, [newer])
        await runtime.run_until_idle()

        letters = await dead_letters(log)
        by_key: dict[str, list[dict[str, object]]] = {}
        for letter in letters:
            by_key.setdefault(str(letter["key"]), []).append(letter)
        assert sorted(str(x["step"]) for x in by_key["r/future.py"]) == sorted(
            s.step_id for s in pipeline_steps()
        )
        for letter in by_key["r/future.py"]:
            assert "unknown major schema version v=2" in str(letter["error"])
        sink_letters = [x for x in letters if x["step"] == "views"]
        assert len(sink_letters) == 1
        assert "unknown major schema version v=3" in str(sink_letters[0]["error"])
        # the known versions around it went through
        assert [h.path for h in keyword_hits(views, "r", "alpha bravo", 10)] == ["a.py", "b.py"]
        assert (await runtime.lag()).behind == 0
    finally:
        views.close()
        await log.close()
