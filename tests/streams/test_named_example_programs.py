"""A request naming one example program by its folder's name (`the chat example`, `echo
example client`) ranks that program's files as source, inside a scope. QA on
gorilla/websocket: `Use single character receiver names in chat example` placed no file of
examples/chat/ in the first ten, and `what does the hub do in the chat example` put hub.go
fifth: examples are pushed down and never embedded, the library's files holding the same
words."""

from __future__ import annotations

from pathlib import Path

from processors.query_scope import in_named_example, named_examples
from streams.stores.views.search import keyword_hits
from tests.streams.symbol_records import views_holding

FILES = {
    "conn.go": (
        "package websocket\n\n// Conn is a connection: single character receiver names.\n"
        "type Conn struct{ name string }\n\n"
        "func (c *Conn) Name() string { return c.name }\n\n"
        "func (c *Conn) Receive() string { return c.name }\n"
    ),
    "client.go": (
        "package websocket\n\n// receive messages from a client: single receiver names\n"
        "func receiveClient(conn *Conn) string { return conn.Receive() }\n"
    ),
    "examples/chat/hub.go": (
        "package main\n\n// Hub keeps the clients.\ntype Hub struct{ clients map[*Client]bool }\n\n"
        "func (hub *Hub) run(receiver string) {}\n"
    ),
    "examples/chat/README.md": "# Chat example\n\nThe chat example program.\n",
    "examples/echo/server.go": "package main\n\nfunc echo() {}\n",
}


def test_the_files_of_the_example_program_a_request_names_rank_first(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        query = "Use single character receiver names in chat example"
        paths = [hit.path for hit in keyword_hits(store, "r", query, 10)]
        assert paths[0] == "examples/chat/hub.go", paths
        # its README is the program's docs: below its code
        assert paths.index("examples/chat/README.md") > paths.index("examples/chat/hub.go")


def test_a_word_before_example_names_the_folder_inside_an_examples_folder() -> None:
    names = named_examples("Add closing handshake code to echo example client")
    assert "echo" in names
    assert in_named_example("examples/echo/client.go", names) == "client.go"
    assert in_named_example("_examples/echo/static/app.js", names) == "static/app.js"
    # a file named so is no program's folder, nor a folder outside examples
    assert in_named_example("examples/echo.go", names) is None
    assert in_named_example("echo/client.go", names) is None
    assert in_named_example("examples/echo/client.go", named_examples("an example of echo")) is None
