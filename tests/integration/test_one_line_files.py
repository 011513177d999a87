"""A minified file is one line: a bundle that cannot send it whole cannot cut that line into
spans either, so it sends the file's path, and the answer's note says why (before, the path
came with no word, and an agent could not tell a minified bundle from a lost file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio


def minified(count: int) -> str:
    calls = (f"function q{n}(a,b){{return a*{n % 97}+b.frobnicateWidget(a)}}" for n in range(count))
    return "var W={};" + ";".join(calls) + ";\n"


async def test_a_one_line_file_sent_as_its_path_is_noted(tmp_path: Path) -> None:
    root = rig_settings(tmp_path).workspace_root
    assert root is not None
    (root / "repo" / "widget.min.js").write_text(minified(900))
    (root / "repo" / "vendor.min.js").write_text(minified(700))
    async with memory_rig(tmp_path, index=True) as (_, s):
        bundle = await call(
            s,
            "repocontext_context",
            {"repoId": "repo", "task": "frobnicateWidget in the min.js files"},
        )
        sent = {e["path"]: e for e in bundle["entries"]}
        for path in ("widget.min.js", "vendor.min.js"):
            assert [u["kind"] for u in sent[path]["units"]] == ["pointer"], path
            assert sent[path]["content"] == path
        note = bundle["note"]
        assert "widget.min.js" in note and "vendor.min.js" in note, note
        assert "one line each, too long to cut: sent as their paths" in note, note
        assert bundle["responseTokens"] <= bundle["budgetTokens"]
        # a budget that holds the files whole sends them, with nothing to say
        whole = await call(
            s,
            "repocontext_context",
            {
                "repoId": "repo",
                "task": "frobnicateWidget in the min.js files",
                "responseBudgetTokens": 200_000,
            },
        )
        kinds = {e["path"]: [u["kind"] for u in e["units"]] for e in whole["entries"]}
        assert kinds["widget.min.js"] == ["span"]
        assert "note" not in whole
