"""`what implements X` for an interface of Go's standard library (`io.WriteCloser`,
`net.Conn`): the types declaring its methods, though no file declares the interface. QA on
gorilla/websocket: `which types implement io.WriteCloser` listed the files using the name
and said none declares a type implementing it."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "writer.go": (
        "package ws\n\ntype messageWriter struct{}\n\n"
        "func (w *messageWriter) Write(p []byte) (int, error) { return len(p), nil }\n\n"
        "func (w *messageWriter) Close() error { return nil }\n"
    ),
    # one of the two methods only
    "trunc.go": (
        "package ws\n\ntype truncWriter struct{}\n\n"
        "func (w *truncWriter) Write(p []byte) (int, error) { return len(p), nil }\n"
    ),
    # uses the name, implements nothing
    "conn.go": (
        'package ws\n\nimport "io"\n\n// Conn hands out an io.WriteCloser per message.\n'
        "type Conn struct {\n\twriter io.WriteCloser\n}\n\n"
        "func (c *Conn) NextWriter() (io.WriteCloser, error) { return c.writer, nil }\n"
    ),
    "errors.go": (
        "package ws\n\ntype CloseError struct{ Code int }\n\n"
        'func (e *CloseError) Error() string { return "close" }\n'
    ),
}


async def test_the_types_declaring_a_stdlib_interfaces_methods_come_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(
            t.SearchArgs(repoId="repo", query="which types implement io.WriteCloser")
        )
        assert answer.hits[0].entry.path == "writer.go", answer.hits
        assert any(r.startswith("implements:") for r in answer.hits[0].reasons)
        placed = [
            h.entry.path for h in answer.hits if any(r.startswith("implements:") for r in h.reasons)
        ]
        assert placed == ["writer.go"], placed
        answer = await app.service.search(
            t.SearchArgs(repoId="repo", query="what implements error")
        )
        assert answer.hits[0].entry.path == "errors.go", answer.hits
