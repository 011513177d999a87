"""A hit on a file longer than the stored text points at the declaration its first `symbol:`
reason names when that lies past the stored text and its name holds more of the query's
words than any stored line the hit would show. QA on valyala/fasthttp: `Server: where do we
write the Date header` found header.go (103 KB) by `updateServerDate` (line 2392, past the
stored text's line 2132) but pointed at line 60, `noDefaultDate bool`, which holds only
`date` (that form reads `Server:` as a scope; `where do we write the server Date header`
now points at updateServerDate)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas.events import MAX_BODY_CHARS
from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio

HEAD = (
    "package web\n\ntype ResponseHeader struct {\n\tnoDefaultDate bool\n}\n\n"
    "// pad copies b: update it for the server\nfunc pad(b []byte) []byte {\n\treturn b\n}\n\n"
)
FILLER = "func filler{n}(b []byte) []byte {{\n\treturn append(b, 'x')\n}}\n\n"
LATE = "func updateServerDate() {\n\trefreshServerDate()\n}\n\nfunc refreshServerDate() {}\n"


async def test_a_hit_points_at_its_first_reason_past_the_stored_text(tmp_path: Path) -> None:
    root = rig_settings(tmp_path).workspace_root
    assert root is not None
    text = HEAD + "".join(FILLER.format(n=n) for n in range(1500)) + LATE
    assert text.index("updateServerDate") > MAX_BODY_CHARS
    (root / "repo").mkdir(parents=True, exist_ok=True)
    (root / "repo" / "go.mod").write_text("module example.com/web\n\ngo 1.22\n")
    (root / "repo" / "header.go").write_text(text)
    start = text[: text.index("func updateServerDate")].count("\n") + 1
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "update the server date header"}
        )
        hit = next(h for h in found["hits"] if h["entry"]["path"] == "header.go")
        assert "symbol:web.updateServerDate" in hit["reasons"][:2], hit
        assert (hit["startLine"], hit["endLine"]) == (start, start + 2), hit
        # the text is not stored: the declaration's head, from the symbols
        assert hit["snippet"].startswith(f"{start}: func updateServerDate"), hit


async def test_a_stored_line_holding_as_many_words_keeps_the_hit(tmp_path: Path) -> None:
    root = rig_settings(tmp_path).workspace_root
    assert root is not None
    head = HEAD + "// updateDate sets the server date header.\nvar serverDateHeader []byte\n\n"
    text = head + "".join(FILLER.format(n=n) for n in range(1500)) + LATE
    (root / "repo").mkdir(parents=True, exist_ok=True)
    (root / "repo" / "go.mod").write_text("module example.com/web\n\ngo 1.22\n")
    (root / "repo" / "header.go").write_text(text)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "update the server date header"}
        )
        hit = next(h for h in found["hits"] if h["entry"]["path"] == "header.go")
        assert hit["startLine"] < 20, hit
