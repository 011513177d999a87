"""A content row's language terms are derived by the content processor; the view sink writes
them as they come (issue 19 item 5), and records an older processor made without them are
re-derived at start. Real SQLite log, real views, real runtime."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from pydantic import BaseModel

from processors.base import Emit, ProcessContext
from processors.content import PROCESSOR_VERSION, ContentProcessor
from schemas import codec, topics
from schemas.events import FileUpsert, RepoRegistration
from schemas.records import ContentRecord
from streams.eventlog.base import EventLog, LogRecord
from streams.runtime.embedded import EmbeddedRuntime
from streams.runtime.rederive import newest_version
from streams.stores.views.handlers import default_registry
from streams.stores.views.search import keyword_hits
from streams.stores.views.store import ViewStore
from streams.topology import Step, embedded_topology
from tests.streams.test_runtime import open_log, upsert

CONTENT = topics.CONTENT.name


def content_record(**changes: object) -> ContentRecord:
    event = FileUpsert(
        repo_id="r",
        path="lib/app.py",
        digest="xx128:beef",
        size=12,
        mtime_ns=1,
        body="route = 1\n",
        observed_at=1.0,
    )
    [emit] = ContentProcessor().process(topics.FILES.name, "r/lib/app.py", event, ProcessContext())
    assert isinstance(emit.value, ContentRecord)
    return emit.value.model_copy(update=changes)


def language_terms_row(views: ViewStore, path: str) -> str:
    sql = "SELECT language_terms FROM content WHERE repo_id = 'r' AND path = ?"
    return str(views.read(lambda c: c.execute(sql, (path,)).fetchone()[0]))


def test_the_processor_derives_the_language_terms() -> None:
    record = content_record()
    assert (record.language, record.language_terms) == ("python", "python")
    assert record.processor_version == PROCESSOR_VERSION
    # another producer's language id: the same words a query naming it yields
    event = FileUpsert(
        repo_id="r",
        path="Main.cs",
        digest="xx128:beef",
        size=1,
        mtime_ns=1,
        body="x",
        observed_at=1.0,
        language="c_sharp",
    )
    [emit] = ContentProcessor().process(topics.FILES.name, "r/Main.cs", event, ProcessContext())
    assert isinstance(emit.value, ContentRecord) and emit.value.language_terms == "c sharp"


def test_the_view_sink_writes_the_records_terms_as_they_come(tmp_path: Path) -> None:
    """A record whose terms differ from its language's tokens is indexed by its terms: the sink
    derives nothing (it used to tokenize `language` itself)."""
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply([(CONTENT, "r/lib/app.py", content_record(language_terms="serpent"))], {})
        assert language_terms_row(views, "lib/app.py") == "serpent"
        assert [h.path for h in keyword_hits(views, "r", "serpent", 10)] == ["lib/app.py"]
        assert keyword_hits(views, "r", "python", 10) == []


class OlderContentProcessor(ContentProcessor):
    """What a release before the field wrote: no language terms, no version."""

    version = 0

    def process(
        self, topic: str, key: str | None, event: BaseModel | None, ctx: ProcessContext
    ) -> list[Emit]:
        out = []
        for emit in super().process(topic, key, event, ctx):
            value = emit.value
            if isinstance(value, ContentRecord):
                value = value.model_copy(update={"language_terms": "", "processor_version": 0})
            out.append(Emit(emit.topic, emit.key, value))
        return out


def older_topology() -> tuple[Step, ...]:
    return tuple(
        dataclasses.replace(step, processor=OlderContentProcessor())
        if step.step_id == "content"
        else step
        for step in embedded_topology()
    )


@pytest.mark.anyio
async def test_records_without_language_terms_are_rederived_at_start(tmp_path: Path) -> None:
    log: EventLog = await open_log("sqlite", tmp_path)
    views = ViewStore(tmp_path / "views.db", default_registry())
    try:
        registration = RepoRegistration(repo_id="r", root="/x", registered_at=1.0)
        await log.append(topics.REPOS.name, [LogRecord("r", codec.encode(registration))])
        await log.append(topics.FILES.name, [upsert("lib/app.py", "route = 1\n")])
        await EmbeddedRuntime(log, views, older_topology()).run_until_idle()
        assert language_terms_row(views, "lib/app.py") == ""
        assert await newest_version(log, CONTENT) == 0

        await EmbeddedRuntime(log, views).run_until_idle()  # a newer release starts

        assert language_terms_row(views, "lib/app.py") == "python"
        assert [h.path for h in keyword_hits(views, "r", "python", 10)] == ["lib/app.py"]
        assert await newest_version(log, CONTENT) == PROCESSOR_VERSION
        assert await EmbeddedRuntime(log, views).rederive_outdated() == {}
    finally:
        views.close()
        await log.close()
