"""A users query writing a member as its type's possessive (`where is the Upgrader's
CheckOrigin field used`) asks for the users of `Upgrader.CheckOrigin`. QA on
gorilla/websocket: read as no users query, it pointed server.go at the field's declaration,
not at `checkOrigin := u.CheckOrigin`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import used_name
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

SERVER = (
    "package websocket\n\n"  # 1-2
    "// Upgrader upgrades a request; its CheckOrigin field checks the origin.\n"  # 3
    "type Upgrader struct {\n"  # 4
    "\tCheckOrigin func(origin string) bool\n"  # 5
    "}\n\n"  # 6-7
    "func (u *Upgrader) Upgrade(origin string) bool {\n"  # 8
    "\tcheckOrigin := u.CheckOrigin\n"  # 9
    "\treturn checkOrigin(origin)\n"  # 10
    "}\n"
)


def test_a_possessive_names_the_member_of_the_type() -> None:
    assert used_name("where is the Upgrader's CheckOrigin field used") == "Upgrader.CheckOrigin"
    assert used_name("what calls the Dialer\u2019s DialContext method") == "Dialer.DialContext"
    # a thing's possessive in prose names no type
    assert used_name("where is the user's name used") is None


async def test_the_hit_is_at_the_use_of_the_member(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, {"server.go": SERVER}) as app:
        query = "where is the Upgrader's CheckOrigin field used"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        hit = next(h for h in answer.hits if h.entry.path == "server.go")
        assert hit.snippet and hit.snippet.startswith("9: checkOrigin := u.CheckOrigin"), hit
