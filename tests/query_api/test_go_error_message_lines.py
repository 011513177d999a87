"""A Go error pasted as its package writes it (`websocket: request origin not allowed by
Upgrader.CheckOrigin`) points its file at the line writing the message in a string literal,
not at a declaration the message names (query_api/retrieval/message_lines.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.message_lines import prefixed_phrases
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

SERVER = (
    "package websocket\n"  # 1
    "\n"  # 2
    'import "net/http"\n'  # 3
    "\n"  # 4
    "// Upgrader upgrades a request.\n"  # 5
    "type Upgrader struct {\n"  # 6
    "\t// CheckOrigin returns true if the request origin is allowed.\n"  # 7
    "\tCheckOrigin func(r *http.Request) bool\n"  # 8
    "}\n"  # 9
    "\n"  # 10
    "func (u *Upgrader) Upgrade(w http.ResponseWriter, r *http.Request) error {\n"  # 11
    "\tif u.CheckOrigin != nil && !u.CheckOrigin(r) {\n"  # 12
    '\t\treturn u.fail(w, "websocket: request origin not allowed by Upgrader.CheckOrigin")\n'
    "\t}\n"  # 14
    "\treturn nil\n"  # 15
    "}\n"  # 16
    "\n"  # 17
    "// fail notes the request origin not allowed by the check.\n"  # 18
    "func (u *Upgrader) fail(w http.ResponseWriter, reason string) error { return nil }\n"
)
FILES = {"server.go": SERVER, "conn.go": "package websocket\n\ntype Conn struct{}\n"}


async def test_a_go_error_points_at_the_literal_writing_it(tmp_path: Path) -> None:
    """QA on gorilla/websocket: this message pointed server.go at the CheckOrigin field."""
    async with indexed_app(tmp_path, FILES) as app:
        for query in (
            "websocket: request origin not allowed by Upgrader.CheckOrigin",
            "2024/01/02 15:04:05 upgrade: websocket: request origin not allowed by Upgrader."
            "CheckOrigin",
        ):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            hit = next(h for h in answer.hits if h.entry.path == "server.go")
            assert hit.snippet and hit.snippet.startswith("13: return u.fail"), (query, hit)
            assert hit.startLine is not None and hit.startLine <= 13 <= (hit.endLine or 0), hit


async def test_a_scoped_change_request_points_no_comment_line(tmp_path: Path) -> None:
    """`server: request origin not allowed by the check` is a scope and a request as often:
    its words on a comment (line 18) are no message written there."""
    async with indexed_app(tmp_path, FILES) as app:
        query = "upgrader: request origin not allowed by the check"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        hit = next(h for h in answer.hits if h.entry.path == "server.go")
        assert not (hit.snippet or "").startswith("18: "), hit


def test_a_change_requests_type_or_code_in_backticks_is_no_go_error() -> None:
    """`fix: pass options to validator in `@IsDateString` decorator` pointed a hit at
    `IS_DATE_STRING = 'isDateString'`, a literal holding the name's words."""
    assert prefixed_phrases("fix: pass options to validator in the decorator") == []
    assert prefixed_phrases("validator: pass options to `@IsDateString` decorator") == []
    phrases = prefixed_phrases("2024/01/02 15:04:05 read: websocket: bad write message type")
    assert phrases == [("bad", "write", "message", "type")]
