"""Memory search terms are derived by the memory processor with each new state of an entry;
the views index them as they come (issue 19 item 5). Entries written before the processor
derived them (memory.v1 is never re-derived) are still searchable."""

from __future__ import annotations

from pathlib import Path

from processors.memory import MemoryProcessor
from schemas import topics
from schemas.memory import MemoryCommand, MemoryEntry, MemoryTerms
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


def test_an_entry_written_before_the_terms_is_still_searchable(tmp_path: Path) -> None:
    legacy = remembered(title="LRU eviction").model_copy(update={"search_terms": None})
    with ViewStore(tmp_path / "v.db", default_registry()) as store:
        store.apply([(topics.MEMORY.name, KEY, legacy)], {})
        assert found(store, "eviction") == ["repo/r/mem/notes/cache"]
