"""A trace's frame names the file whose path it ends with by the most segments: Go prints
absolute paths, and `/app/examples/chat/client.go:9` ends with client.go as well, the
root's. QA on gorilla/websocket: a panic through examples/chat/client.go ranked the root's
client.go second, pointed at line 9's number, and left the example's file out."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.named_lines import Place, place_among
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "client.go": (
        "package websocket\n\n// Client reads a message; a nil connection panics on read.\n"
        "type Client struct{ conn *Conn }\n\n"
        "func (c *Client) ReadMessage() error { return c.conn.read() }\n\n"
        "// readPump reads from the connection until a runtime error: a nil pointer.\n"
        "func (c *Client) readPump() {\n\tfor c.ReadMessage() == nil {\n\t}\n}\n"
    ),
    "conn.go": (
        "package websocket\n\ntype Conn struct{ br []byte }\n\n"
        "func (c *Conn) read() error {\n\t_ = c.br\n\treturn nil\n}\n"
    ),
    "examples/chat/client.go": (
        "package main\n\n"  # 1-2
        'import "example.com/websocket"\n\n'  # 3-4
        "type Client struct{ conn *websocket.Conn }\n\n"  # 5-6
        "func (c *Client) readPump() {\n"  # 7
        "\tfor {\n"  # 8
        "\t\t_ = c.conn\n"  # 9
        "\t}\n}\n"
    ),
}

TRACE = """panic: runtime error: invalid memory address or nil pointer dereference

goroutine 18 [running]:
example.com/websocket.(*Conn).read(0x0)
\t/go/pkg/mod/example.com/websocket@v1.5.1/conn.go:6 +0x2a
main.(*Client).readPump(0xc000120000)
\t/app/examples/chat/client.go:9 +0x85
"""


async def test_a_frame_places_the_file_its_path_ends_with_most(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=TRACE))
        paths = [hit.entry.path for hit in answer.hits]
        assert paths[:2] == ["conn.go", "examples/chat/client.go"], paths
        hit = answer.hits[1]
        assert (hit.startLine, hit.endLine) == (9, 9), hit
        root = next((h for h in answer.hits if h.entry.path == "client.go"), None)
        assert root is None or root.startLine != 9, root


def test_a_place_names_one_of_two_files_sharing_a_name() -> None:
    place = Place("/app/examples/chat/client.go", 9, 9)
    paths = ["client.go", "examples/chat/client.go", "examples/echo/client.go"]
    assert place_among([place], "examples/chat/client.go", paths) == place
    assert place_among([place], "client.go", paths) is None
    assert place_among([place], "examples/echo/client.go", paths) is None
    # alone, the root's file is named as before
    assert place_among([place], "client.go", ["client.go"]) == place
