"""Memory search terms are derived by the memory processor with each new state of an entry;
the views index them as they come and never tokenize (issue 19 item 5). Entries an older
build wrote without them are re-derived by the processor when the runtime starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.memory import MemoryProcessor
from processors.memory_terms import memory_terms
from schemas import codec, topics
from schemas.memory import MemoryCommand, MemoryEntry, MemoryTerms
from schemas.topics import partition_for
from streams.eventlog.base import EventLog, LogRecord
from streams.eventlog.factory import open_event_log
from streams.runtime.embedded import EmbeddedRuntime
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from streams.stores.views.memory import MemoryViews

T0 = 1_700_000_000.0
KEY = "r/notes/cache"


def remembered(**fields: str) -> MemoryEntry:
    command = MemoryCommand(
        op="remember",
        command_id="c1",
        issued_at=T0,
        repo_id="r",
        topic="notes",
        id="cache",
        fields=fields,
        add_tags=["PerfWork"],
    )
    [entry] = [
        e.value
        for e in MemoryProcessor().process_keyed({}, KEY, command, 1)
        if e.topic == topics.MEMORY.name
    ]
    assert isinstance(entry, MemoryEntry)
    return entry


def test_every_new_state_carries_the_terms_of_its_fields() -> None:
    entry = remembered(title="LRU eviction", body="the readCache grows")
    assert entry.search_terms == MemoryTerms(
        key="cache note",
        topic="notes",
        tags="perf work",
        title="lru eviction",
        body="the read cache grows",
    )


def found(store: ViewStore, query: str) -> list[str]:
    return [h.entry.key for h in MemoryViews(store).search("r", query, 5, T0)]


def test_the_views_index_the_entrys_terms_and_store_the_entry_without_them(
    tmp_path: Path,
) -> None:
    entry = remembered(title="LRU eviction", body="the readCache grows")
    planted = entry.model_copy(update={"search_terms": MemoryTerms(body="zebra")})
    with ViewStore(tmp_path / "v.db", default_registry()) as store:
        store.apply([(topics.MEMORY.name, KEY, planted)], {})
        assert found(store, "zebra") == ["repo/r/mem/notes/cache"]
        assert found(store, "eviction") == []  # not derived again from the fields
        stored = MemoryViews(store).get("repo/r/mem/notes/cache")
        assert stored is not None and stored.search_terms is None
        assert stored == planted.model_copy(update={"search_terms": None})


def test_the_views_never_tokenize_an_entry(tmp_path: Path) -> None:
    """An entry without terms (an older build wrote it) is kept and found by key, but search
    indexes only what the processor derived: the runtime re-derives such entries at start."""
    legacy = remembered(title="LRU eviction").model_copy(update={"search_terms": None})
    with ViewStore(tmp_path / "v.db", default_registry()) as store:
        store.apply([(topics.MEMORY.name, KEY, legacy)], {})
        assert found(store, "eviction") == []
        assert MemoryViews(store).get("repo/r/mem/notes/cache") is not None


def test_rederive_gives_a_legacy_entry_its_terms_once() -> None:
    processor = MemoryProcessor()
    entry = remembered(title="LRU eviction")
    legacy = entry.model_copy(update={"search_terms": None})
    state = {KEY: legacy, "r/notes/fresh": entry.model_copy(update={"id": "fresh"})}
    [migration] = processor.migrations(state)
    assert migration.topic == topics.MEMORY_COMMANDS.name and migration.key == KEY
    assert isinstance(migration.value, MemoryCommand) and migration.value.op == "rederive"
    [emit] = processor.process_keyed(state, KEY, migration.value, 7)
    assert emit.topic == topics.MEMORY.name and emit.key == KEY
    assert emit.value == entry  # the same entry with the terms the processor derives
    # applied (or outdated by a newer state): a repeat changes nothing, and answers nothing
    assert processor.process_keyed({KEY: entry}, KEY, migration.value, 8) == []
    assert processor.process_keyed({}, KEY, migration.value, 8) == []
    assert processor.migrations({KEY: entry}) == []


@pytest.mark.anyio
@pytest.mark.parametrize("backend", ["memory", "sqlite"])
async def test_the_runtime_re_derives_entries_an_older_build_wrote(
    tmp_path: Path, backend: str
) -> None:
    """memory.v1 is compacted: an entry written before the processor derived terms stays as it
    was until it changes. Starting the runtime queues a rederive command for it; the memory
    processor writes it again with its terms, and search finds it through them."""
    url = "memory://" if backend == "memory" else f"sqlite:///{tmp_path / 'log.db'}"
    log = open_event_log(url)
    await log.create_topics(topics.CATALOGUE)
    legacy = remembered(title="LRU eviction").model_copy(update={"search_terms": None})
    await log.append(topics.MEMORY.name, [LogRecord(KEY, codec.encode(legacy))])
    try:
        with ViewStore(tmp_path / "v.db", default_registry()) as store:
            await EmbeddedRuntime(log, store).run_until_idle()
            assert found(store, "eviction") == ["repo/r/mem/notes/cache"]
            newest = await newest_entry(log, KEY)
            assert newest.search_terms == memory_terms(newest)
            # a second start finds nothing to re-derive
            end = await log.end_offset(topics.MEMORY_COMMANDS.name, 0)
            await EmbeddedRuntime(log, store).run_until_idle()
            assert await log.end_offset(topics.MEMORY_COMMANDS.name, 0) == end
    finally:
        await log.close()


async def newest_entry(log: EventLog, key: str) -> MemoryEntry:
    partition = partition_for(key, await log.partitions(topics.MEMORY.name))
    records = await log.read(topics.MEMORY.name, partition, 0, 100)
    [value] = [r.value for r in records if r.key == key][-1:]
    assert value is not None
    entry = codec.decode(topics.MEMORY.name, value)
    assert isinstance(entry, MemoryEntry)
    return entry
