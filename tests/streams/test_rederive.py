"""Records an older extractor made are re-derived at start, over a real SQLite log and views."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from pydantic import BaseModel

from processors.base import Emit, ProcessContext
from processors.symbols.processor import PROCESSOR_VERSION, SymbolsProcessor
from schemas import codec, topics
from schemas.events import RepoRegistration
from schemas.symbols import SymbolsRecord
from streams.eventlog.base import EventLog, LogRecord
from streams.runtime.embedded import EmbeddedRuntime
from streams.runtime.rederive import newest_version
from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore
from streams.stores.views.symbols import SymbolViews
from streams.topology import Step, embedded_topology
from tests.streams.test_runtime import open_log, upsert

pytestmark = pytest.mark.anyio

SOURCE = "export const createFactory = <E,>(init?: E) => new Factory(init)\n"


class OlderSymbolsProcessor(SymbolsProcessor):
    """What an older release wrote: version 1, and it missed the arrow function."""

    version = 1

    def process(
        self, topic: str, key: str | None, event: BaseModel | None, ctx: ProcessContext
    ) -> list[Emit]:
        out = []
        for emit in super().process(topic, key, event, ctx):
            value = emit.value
            if isinstance(value, SymbolsRecord):
                value = value.model_copy(update={"symbols": [], "processor_version": 1})
            elif value is not None:
                value = value.model_copy(update={"processor_version": 1})
            out.append(Emit(emit.topic, emit.key, value))
        return out


def older_topology() -> tuple[Step, ...]:
    return tuple(
        dataclasses.replace(step, processor=OlderSymbolsProcessor())
        if step.step_id == "symbols"
        else step
        for step in embedded_topology()
    )


async def indexed_by_an_older_release(tmp_path: Path) -> tuple[EventLog, ViewStore]:
    log = await open_log("sqlite", tmp_path)
    views = ViewStore(tmp_path / "views.db", default_registry())
    registration = RepoRegistration(repo_id="r", root="/x", registered_at=1.0)
    await log.append(topics.REPOS.name, [LogRecord("r", codec.encode(registration))])
    await log.append(topics.FILES.name, [upsert("src/factory.ts", SOURCE)])
    await EmbeddedRuntime(log, views, older_topology()).run_until_idle()
    return log, views


def names(views: ViewStore) -> set[str]:
    return {row.name for row in SymbolViews(views).symbols_of_file("r", "src/factory.ts")}


async def test_records_of_an_older_extractor_are_rederived_at_start(tmp_path: Path) -> None:
    log, views = await indexed_by_an_older_release(tmp_path)
    try:
        assert names(views) == set() and await newest_version(log, topics.SYMBOLS.name) == 1

        # the same data directory, a newer release: starting is all it takes
        await EmbeddedRuntime(log, views).run_until_idle()

        assert "createFactory" in names(views)
        assert await newest_version(log, topics.SYMBOLS.name) == PROCESSOR_VERSION
        assert await newest_version(log, topics.XREFS.name) == PROCESSOR_VERSION
        # the next start finds nothing to re-derive
        assert await EmbeddedRuntime(log, views).rederive_outdated() == {}
    finally:
        views.close()
        await log.close()


async def test_the_rewind_names_the_step_and_the_older_version(tmp_path: Path) -> None:
    log, views = await indexed_by_an_older_release(tmp_path)
    try:
        runtime = EmbeddedRuntime(log, views)
        assert await runtime.rederive_outdated() == {"symbols": 1}
        assert await log.committed("symbols", topics.FILES.name, 0) == 0
        assert await runtime.rederive_outdated() == {}  # once per runtime
    finally:
        views.close()
        await log.close()


async def test_a_current_or_empty_log_rewinds_nothing(tmp_path: Path) -> None:
    log = await open_log("sqlite", tmp_path)
    views = ViewStore(tmp_path / "views.db", default_registry())
    try:
        runtime = EmbeddedRuntime(log, views)
        assert await runtime.rederive_outdated() == {}  # empty
        await log.append(topics.FILES.name, [upsert("a.py", "def alpha(): pass\n")])
        await runtime.run_until_idle()
        assert await newest_version(log, topics.SYMBOLS.name) == PROCESSOR_VERSION
        committed = await log.committed("symbols", topics.FILES.name, 0)
        assert await EmbeddedRuntime(log, views).rederive_outdated() == {}
        assert await log.committed("symbols", topics.FILES.name, 0) == committed
    finally:
        views.close()
        await log.close()
