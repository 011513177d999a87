"""The file graph's import resolution and the answer tail filled with the head's neighbours."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from query_api.retrieval import file_graph, ladder
from query_api.retrieval.file_graph import FileGraphs, ModuleFiles, build_graph
from query_api.retrieval.file_hits import file_entry as _file_entry
from query_api.retrieval.ladder import Retriever
from query_api.retrieval.neighbour_fill import KEEP, REASON, fill_tail
from query_api.retrieval.readiness import Readiness
from schemas import tools as t
from streams.embedders import NoEmbedder
from streams.stores.read_budget import ReadInterrupted
from streams.stores.views.handlers import default_registry
from streams.stores.views.search import keyword_hits
from streams.stores.views.store import ViewStore
from tests.streams.symbol_records import records


def hit(path: str, score: float) -> t.SearchHit:
    return t.SearchHit(score=score, entry=_file_entry("repo", path, None), reasons=["semantic"])


def paths(hits: list[t.SearchHit]) -> list[str]:
    return [h.entry.path or "" for h in hits]


def test_modules_name_files_folders_and_dotted_packages() -> None:
    files = ModuleFiles(
        [
            "lib/only.js",
            "src/locales/index.ts",
            "src/click/core.py",
            "src/click/__init__.py",
            "crates/core/flags/mod.rs",
        ]
    )
    assert files.files("lib/only") == ["lib/only.js"]
    assert files.files("./src/locales") == ["src/locales/index.ts"]
    assert files.files("click.core") == ["src/click/core.py"]
    assert files.files("crates/core/flags") == ["crates/core/flags/mod.rs"]
    assert files.files("node:http") == []
    assert files.files("react") == []


def test_the_graph_is_undirected_and_drops_self_edges() -> None:
    imports = {"a.ts": ["b", "a"], "b.ts": [], "c.ts": []}
    dependents = {"a.ts": [], "b.ts": ["c.ts", "b.ts"], "c.ts": []}
    graph = build_graph(list(imports), imports.__getitem__, dependents.__getitem__)
    assert graph == {
        "a.ts": frozenset({"b.ts"}),
        "b.ts": frozenset({"a.ts", "c.ts"}),
        "c.ts": frozenset({"b.ts"}),
    }


def test_a_neighbour_of_the_first_hit_moves_into_the_tail_not_the_head() -> None:
    """`locales/kn.ts` scores lowest, but the first hit (the index listing every locale) and
    the second import it: it moves up past unrelated files, and the head stays as ranked."""
    ranked = [hit(f"src/f{i}.ts", 1.0 - i * 0.05) for i in range(KEEP)]
    ranked[0] = hit("locales/index.ts", 1.0)
    ranked += [hit("src/other.ts", 0.7), hit("src/more.ts", 0.69), hit("locales/kn.ts", 0.5)]
    graph = {
        "locales/index.ts": frozenset({"locales/kn.ts"}),
        "locales/kn.ts": frozenset({"locales/index.ts"}),
    }
    out = fill_tail(ranked, graph, 8, lambda _p: None)
    assert paths(out)[:KEEP] == paths(ranked)[:KEEP]
    assert paths(out)[KEEP] == "locales/kn.ts"
    assert REASON + "locales/index.ts" in out[KEEP].reasons
    assert [h.score for h in out] == sorted((h.score for h in out), reverse=True)


def test_a_neighbour_no_list_found_is_hydrated_and_a_gone_one_skipped() -> None:
    ranked = [hit("a.py", 1.0), hit("b.py", 0.2)]
    graph = {"a.py": frozenset({"gone.py", "new.py"})}
    made: list[str] = []

    def hydrate(path: str) -> t.SearchHit | None:
        made.append(path)
        return None if path == "gone.py" else hit(path, 0.0)

    out = fill_tail(ranked, graph, 5, hydrate)
    assert paths(out) == ["a.py", "b.py", "new.py"]
    assert sorted(made) == ["gone.py", "new.py"]


def test_a_hub_lends_less_than_a_file_with_one_neighbour() -> None:
    head = [hit(f"h{i}.py", 1.0) for i in range(KEEP)]
    hub = {"h0.py": frozenset({"x.py", *(f"n{i}.py" for i in range(24))})}
    single = {"h0.py": frozenset({"x.py"})}
    tail = [hit("y.py", 0.3), hit("x.py", 0.2)]
    assert paths(fill_tail(head + tail, hub, KEEP + 1, lambda _p: None))[-1] == "y.py"
    assert paths(fill_tail(head + tail, single, KEEP + 1, lambda _p: None))[-1] == "x.py"


def test_an_answer_shorter_than_the_head_is_the_ranking_cut_to_k() -> None:
    """k = 1..KEEP asked for one to five hits and got five (a QA pass: `search -k 1`)."""
    ranked = [hit(f"f{i}.py", 1.0 - i / 10) for i in range(8)]
    graph = {"f0.py": frozenset({"f7.py"})}
    for k in range(1, KEEP + 1):
        assert fill_tail(ranked, graph, k, lambda _p: None) == ranked[:k]


def test_without_a_graph_the_answer_is_the_ranking_cut_to_k() -> None:
    ranked = [hit(f"f{i}.py", 1.0 - i / 10) for i in range(8)]
    assert fill_tail(ranked, {}, 3, lambda _p: None) == ranked[:3]


@pytest.mark.anyio
async def test_search_fills_its_tail_with_a_file_the_top_hits_import(tmp_path: Path) -> None:
    """`i18n/kn.ts` holds none of the query's words, so no list finds it; the locale index
    that the query's words do find imports it, so the answer carries it, saying why."""
    store = ViewStore(tmp_path / "views.db", default_registry())
    files = {
        "i18n/hi.ts": 'export const hi = { name: "hindi locale", plural: "hindi locales" };\n',
        "i18n/index.ts": 'import { hi } from "./hi";\nimport { kn } from "./kn";\n'
        "// every locale\nexport const locales = [hi, kn];\n",
        "i18n/kn.ts": 'export const kn = { name: "kannada" };\n',
        **{f"src/d{i}.ts": f"export const d{i} = 'a locale of sorts {i}';\n" for i in range(3)},
        "pkg/greet.go": "package pkg\n\nfunc Greet() string { return Title() }\n",
        "pkg/title.go": 'package pkg\n\nfunc Title() string { return "t" }\n',
    }
    store.apply([rec for path, body in files.items() for rec in records(path, body)], {})
    retriever = Retriever(store, NoEmbedder(), None, Readiness(embedder_bound=False))
    try:
        lexical = [h.path for h in keyword_hits(store, "r", "hindi locale", 20)]
        assert "i18n/kn.ts" not in lexical and "i18n/index.ts" in lexical[:KEEP]
        assert await asyncio.to_thread(retriever.graphs.wait, "r", 30.0)
        graph = retriever.graphs.graph("r")
        assert graph is not None and "i18n/kn.ts" in graph["i18n/index.ts"]
        assert not any(path.endswith(".go") for path in graph)  # packages are directories
        answer = await retriever.search("r", "hindi locale", 10)
        order = paths(answer.hits)
        assert order[:KEEP] == lexical[:KEEP]
        added = answer.hits[order.index("i18n/kn.ts")]
        assert REASON + "i18n/index.ts" in added.reasons
    finally:
        retriever.graphs.close()
        store.close()


def test_a_graph_is_rebuilt_once_the_views_moved_on(tmp_path: Path) -> None:
    store = ViewStore(tmp_path / "views.db", default_registry())
    store.apply(
        records("a.ts", "export const a = 1;\n") + records("b.ts", "export const b = 2;\n"), {}
    )
    graphs = FileGraphs(store, rebuild_after_s=0.0)
    try:
        assert graphs.wait("r", 30.0)
        first = graphs.graph("r")
        assert first == {}
        assert graphs.graph("r") is first  # nothing changed: no rebuild
        third = records("c.ts", 'import { a } from "./a";\nexport const c = a;\n')
        store.apply(third, {("files.v1", 0): 3})  # the view sink moves its offsets on
        graphs.graph("r")  # starts the rebuild
        deadline = time.monotonic() + 30.0
        while (graph := graphs.graph("r")) == first and time.monotonic() < deadline:
            time.sleep(0.05)
        assert graph == {"a.ts": frozenset({"c.ts"}), "c.ts": frozenset({"a.ts"})}
    finally:
        graphs.close()
        store.close()


def test_a_query_waits_a_bounded_time_for_a_first_build_it_expected_cheap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small repository of generated modules declaring the same names builds for seconds
    (17.8 s for 30 such modules here): the query that started the build answers without
    the graph once INLINE_WAIT_S have passed, and the build goes on to serve later ones."""
    monkeypatch.setattr(file_graph, "INLINE_WAIT_S", 0.05)
    release = threading.Event()

    class SlowGraphs(FileGraphs):
        def _build_graph(self, repo_id: str, lower: Any = None) -> Any:
            release.wait(30.0)  # a build that takes longer than the query may wait
            return super()._build_graph(repo_id, lower)

    store = ViewStore(tmp_path / "views.db", default_registry())
    store.apply(
        records("a.ts", "export const a = 1;\n")
        + records("c.ts", 'import { a } from "./a";\nexport const c = a;\n'),
        {},
    )
    graphs = SlowGraphs(store, rebuild_after_s=0.0)
    try:
        assert graphs.graph("r") is None  # answered without the graph, not after the build
        release.set()
        assert graphs.wait("r", 30.0)
        assert graphs.graph("r") == {"a.ts": frozenset({"c.ts"}), "c.ts": frozenset({"a.ts"})}
    finally:
        release.set()
        graphs.close()
        store.close()


def test_a_repository_too_large_for_a_graph_is_listed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over MAX_FILES the graph has no edges, and that is remembered: u-boot's searches each
    listed its 38k files again (a quarter of the server's CPU)."""
    monkeypatch.setattr(file_graph, "MAX_FILES", 2)
    store = ViewStore(tmp_path / "views.db", default_registry())
    store.apply(
        records("a.ts", "export const a = 1;\n")
        + records("b.ts", 'import { a } from "./a";\n')
        + records("c.ts", 'import { a } from "./a";\n'),
        {},
    )
    listings: list[str] = []
    files_under = store.files_under

    def counted(*args: Any, **kwargs: Any) -> Any:
        listings.append(args[0])
        return files_under(*args, **kwargs)

    monkeypatch.setattr(store, "files_under", counted)
    graphs = FileGraphs(store, rebuild_after_s=0.0)
    try:
        assert graphs.wait("r", 30.0)
        assert graphs.graph("r") == {}
        for _ in range(3):
            assert graphs.graph("r") == {}  # nothing changed: no further listing
        assert len(listings) == 1
    finally:
        graphs.close()
        store.close()


@pytest.mark.anyio
async def test_a_read_interrupted_in_the_memory_search_ends_the_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A client that hung up between the file and the memory reads: the memory search's
    interruption was logged as an ERROR with a traceback ("memory keyword search failed")
    and the files ranked for nobody (a QA pass, once in about 40 disconnects)."""
    store = ViewStore(tmp_path / "views.db", default_registry())
    store.apply(records("a.py", "def alpha():\n    return 1\n"), {})
    retriever = Retriever(store, NoEmbedder(), None, Readiness(embedder_bound=False))

    def ended(*_: Any) -> list[Any]:
        raise ReadInterrupted("the read was stopped: its call ended")

    monkeypatch.setattr(ladder, "keyword_memory_hits", ended)
    try:
        with pytest.raises(ReadInterrupted):
            await retriever.search("r", "alpha", 10)
        assert not [r for r in caplog.records if r.levelname == "ERROR"]
    finally:
        retriever.graphs.close()
        store.close()
