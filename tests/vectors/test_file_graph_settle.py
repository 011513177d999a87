"""The file graph of a half-applied index is not kept once the index is complete.

Found on u-boot: a server whose views were rebuilt at start built its graph over ~19k of 38k
files (a graph with edges, where the whole corpus, over MAX_FILES, gets none) and filled
answers' tails from it until REBUILD_COST_FACTOR x its build time had passed.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from query_api.retrieval import file_graph
from query_api.retrieval.file_graph import FileGraphs, follow_index_settled
from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore
from tests.streams.symbol_records import records

IMPORTER = 'import { a } from "./a";\nexport const c = a;\n'


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ViewStore:
    monkeypatch.setattr(file_graph, "MAX_FILES", 3)  # the complete index is over it
    monkeypatch.setattr(file_graph, "REBUILD_COST_FACTOR", 1e9)  # builds as costly as u-boot's:
    monkeypatch.setattr(file_graph, "INLINE_BUILD_S", -1.0)  # rebuilt later, in the background
    views = ViewStore(tmp_path / "views.db", default_registry())
    views.apply(records("a.ts", "export const a = 1;\n") + records("c.ts", IMPORTER), {})
    return views


def complete_the_index(store: ViewStore) -> None:
    more = records("b.ts", "export const b = 2;\n") + records("d.ts", IMPORTER)
    store.apply(more, {("files.v1", 0): 4})  # the view sink moves its offsets on


def test_a_graph_of_a_half_applied_index_is_not_served_once_it_is_complete(
    store: ViewStore,
) -> None:
    graphs = FileGraphs(store, rebuild_after_s=0.0)
    try:
        graphs.index_settled(False)  # indexing (or a views rebuild) is running
        assert graphs.wait("r", 30.0)
        partial = graphs.graph("r")
        assert partial == {"a.ts": frozenset({"c.ts"}), "c.ts": frozenset({"a.ts"})}
        complete_the_index(store)
        assert graphs.graph("r") == partial  # still indexing: the last graph is the best one
        graphs.index_settled(True)
        assert graphs.graph("r") is None  # as a server started on the complete index
        assert graphs.wait("r", 30.0)
        assert graphs.graph("r") == {}  # the whole corpus is over MAX_FILES
    finally:
        graphs.close()
        store.close()


def test_a_graph_the_views_did_not_move_under_is_kept(store: ViewStore) -> None:
    graphs = FileGraphs(store, rebuild_after_s=0.0)
    try:
        graphs.index_settled(False)  # a start's check of the disk that found nothing to do
        assert graphs.wait("r", 30.0)
        built = graphs.graph("r")
        graphs.index_settled(True)
        assert graphs.graph("r") is built
    finally:
        graphs.close()
        store.close()


def test_edits_on_a_complete_index_wait_for_the_rebuild_cost(store: ViewStore) -> None:
    graphs = FileGraphs(store, rebuild_after_s=0.0)
    try:
        assert graphs.wait("r", 30.0)
        built = graphs.graph("r")
        complete_the_index(store)  # edits, applied while the index stays complete
        assert graphs.graph("r") is built
    finally:
        graphs.close()
        store.close()


def test_a_reader_counts_a_stretch_of_indexing_it_did_not_see(store: ViewStore) -> None:
    graphs = FileGraphs(store, rebuild_after_s=0.0)
    try:
        graphs.index_settled(True, 4)  # the owner's fourth complete stretch
        assert graphs.wait("r", 30.0)
        assert graphs.graph("r")
        complete_the_index(store)
        graphs.index_settled(True, 4)  # searches of the same stretch
        assert graphs.graph("r")
        graphs.index_settled(True, 5)  # the owner indexed between two searches
        assert graphs.graph("r") is None
        assert graphs.wait("r", 30.0)
        assert graphs.graph("r") == {}
    finally:
        graphs.close()
        store.close()


def test_the_host_says_incomplete_after_two_looks_in_a_row(store: ViewStore) -> None:
    looks = iter([False, True, False, False, False, True, True])
    said: list[tuple[bool, int]] = []
    graphs = FileGraphs(store)
    stop = asyncio.Event()

    async def look() -> bool:
        said.append(graphs.settled_state())
        try:
            return next(looks)
        except StopIteration:
            stop.set()
            return True

    try:
        asyncio.run(follow_index_settled(look, graphs, stop, poll_s=0.0))
        # the state each look found: one incomplete look changes nothing, two do, and the
        # next complete look begins a new stretch
        assert said == [
            (True, 0),
            (True, 0),
            (True, 0),
            (True, 0),
            (False, 0),
            (False, 0),
            (True, 1),
            (True, 1),
        ]
    finally:
        graphs.close()
        store.close()
