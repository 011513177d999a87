"""repocontext_changed names a Kotlin use of an updated file by the function holding it, not
by a local `val` of that function (QA on square/retrofit: the Kotlin extractor declares each
local, and related named KotlinSuspendTest's tests `...KotlinSuspendTest.body.example`), as
related does (tests/query_api/test_kotlin_locals.py). Real app, real MCP client session."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig
from tests.query_api.test_kotlin_locals import TWICE, TWICE_TEST

pytestmark = pytest.mark.anyio


async def test_changed_names_a_kotlin_local_by_its_function(tmp_path: Path) -> None:
    repo = tmp_path / "ws" / "repo"
    (repo / "src" / "org" / "shop").mkdir(parents=True)
    (repo / "src" / "org" / "shop" / "Twice.kt").write_text(TWICE)
    (repo / "src" / "org" / "shop" / "TwiceTest.kt").write_text(TWICE_TEST)
    async with memory_rig(tmp_path, index=True) as (_app, session):
        (repo / "src" / "org" / "shop" / "Twice.kt").write_text(TWICE + "// edited\n")
        changed = await call(session, "repocontext_changed", {"repoId": "repo", "path": "."})
        assert changed["updated"] == ["src/org/shop/Twice.kt"]
        symbols = [d["symbol"] for d in changed["dependents"]]
        assert "org.shop.TwiceTest.doubles" in symbols, symbols
        assert "org.shop.TwiceTest.doubles.doubled" not in symbols, symbols
