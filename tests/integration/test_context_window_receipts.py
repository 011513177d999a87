"""A window cut inside a long declaration is not the declaration: a session sent one window
of it must still be sent another (query_api/context/entry_fields.unit_key)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio


def _ledger() -> str:
    body = [f"    step_{i}(batch)" for i in range(400)]
    body[40] = "    refunds = settle_refunds(batch)  # settle the refunds"
    body[360] = "    trail = write_audit_trail(batch)  # write the audit trail"
    return "def reconcile_ledger(batch):\n" + "\n".join(body) + "\n    return batch\n"


async def test_a_session_is_sent_another_window_of_a_declaration_it_holds_part_of(
    tmp_path: Path,
) -> None:
    """gorm's 540-line `setupValuerAndSetter` was sent as lines 933-993 for one task; the
    next task in the session would have been sent its lines 669-721, and was told instead
    that it held them (`reused`, the declaration's receipt): a span's receipt named the
    declaration whatever lines of it the span held."""
    async with memory_rig(tmp_path, index=True) as (app, s):
        root = app.settings.workspace_root
        assert root is not None
        (root / "repo" / "src" / "ledger.py").write_text(_ledger())
        await call(s, "repocontext_refresh", {"repoId": "repo", "paths": ["src/ledger.py"]})
        base = {"repoId": "repo", "detail": "slices", "responseBudgetTokens": 4000}

        async def ledger(task: str, **more: object) -> tuple[dict[str, Any], list[dict[str, Any]]]:
            got = await call(s, "repocontext_context", {**base, "task": task, **more})
            entry = next((e for e in got["entries"] if e["path"] == "src/ledger.py"), None)
            acks = [r for r in got.get("reused", []) if r["path"] == "src/ledger.py"]
            return entry or {}, acks

        alone, _ = await ledger("reconcile ledger: write the audit trail")
        assert "write_audit_trail" in alone["content"]
        assert "settle_refunds" not in alone["content"]  # a window, not the declaration
        # QA on uber-go/zap and encode/uvicorn: stats counted only files sent whole, so twelve
        # bundles of spans replaced no reads at all; a span replaces the code it carries
        stats = await call(s, "repocontext_stats", {})
        assert stats["readsReplacedTokens"] >= alone["tokenCount"] > 0, stats
        first, _ = await ledger("reconcile ledger: settle the refunds", session="w")
        assert "settle_refunds" in first["content"] and "write_audit_trail" not in first["content"]
        second, acks = await ledger("reconcile ledger: write the audit trail", session="w")
        assert "write_audit_trail" in second.get("content", ""), acks
        # the same window again is what the session holds: it is acknowledged, and only the
        # lines it lacks are sent (a window the answer's smaller envelope lets grow a few
        # lines sends just those, and acknowledges the lines it holds by their numbers)
        again, acks = await ledger("reconcile ledger: write the audit trail", session="w")
        assert "write_audit_trail" not in again.get("content", "")
        assert again.get("tokenCount", 0) < second["tokenCount"] // 4
        audit_line = 362  # `write_audit_trail`, line 361 of the body after the `def` line
        assert any(
            r.get("startLine", audit_line + 1) <= audit_line <= r.get("endLine", 0)
            or (r["kind"] == "span" and "startLine" not in r and not again)
            for r in acks
        ), acks
