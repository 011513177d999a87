"""A request writing a name as code that only example programs declare (`fix function
echoReadAll comment`) ranks the example declaring it first: the request is about that
example. QA on gorilla/websocket: examples/autobahn/server.go, declaring echoReadAll, came
10th, examples being pushed down and a declaration in one not counted as named."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.held_in_fusion import held_at_keyword_rank
from schemas import tools as t
from streams.stores.views.search import keyword_hits
from tests.streams.symbol_records import views_holding

FILES = {
    "conn.go": (
        "package websocket\n\n// read all of a message; fix the comment of each function\n"
        "func readAll(c *Conn) ([]byte, error) { return nil, nil }\n\n"
        "// echo reads all and writes it back: a function comment\n"
        "func echo(c *Conn) error { return nil }\n"
    ),
    "server.go": (
        "package websocket\n\n// Upgrader upgrades; a function comment to fix\n"
        "type Upgrader struct{}\n"
    ),
    "examples/autobahn/server.go": (
        "package main\n\n// echoReadAll echoes a message read whole.\n"
        "func echoReadAll(w http.ResponseWriter, r *http.Request) {}\n"
    ),
    "conn_test.go": "package websocket\n\nfunc echoTestHelper() {}\n",
}


def test_an_example_declaring_the_name_only_examples_declare_ranks_first(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        hits = keyword_hits(store, "r", "fix function echoReadAll comment", 10)
        assert hits[0].path == "examples/autobahn/server.go", [h.path for h in hits]


def test_a_name_a_source_file_declares_too_keeps_the_source_first(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        hits = keyword_hits(store, "r", "fix the Upgrader comment", 10)
        assert hits[0].path == "server.go", [h.path for h in hits]


def test_the_example_declaring_it_keeps_its_keyword_rank_in_the_fusion() -> None:
    held = held_at_keyword_rank("fix function echoReadAll comment")
    assert held is not None

    def hit(path: str, *reasons: str) -> t.SearchHit:
        entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
        return t.SearchHit(score=1.0, entry=entry, reasons=list(reasons))

    assert held(hit("examples/autobahn/server.go", "symbol:main.echoReadAll", "content-match"))
    assert not held(hit("examples/chat/main.go", "symbol:main.serveHome", "content-match"))
    assert not held(hit("conn.go", "symbol:websocket.echoReadAll"))
