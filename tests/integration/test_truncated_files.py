"""A file longer than the stored 64 Ki characters says where what the tools hold of it stops
(issue 25 item 3, QA on ripgrep's 246 KB defs.rs): outline and every bundle entry of it name
the line the stored body stops in, and a bundle at a budget that holds the whole stored body
sends it up to that line. Its declarations are extracted past that line (as far as search
indexes the file): outline lists its last function and symbol search finds it."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas.events import MAX_BODY_CHARS
from schemas.symbols import MAX_OUTLINE_SYMBOLS
from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio


def long_module() -> str:
    funcs = [
        f"def settle_ledger_{n}(entry):\n    return entry.amount + {n}\n\n" for n in range(3000)
    ]
    return "".join(funcs)


async def test_outline_and_bundle_say_where_a_long_file_is_cut(tmp_path: Path) -> None:
    root = rig_settings(tmp_path).workspace_root
    assert root is not None
    text = long_module()
    assert len(text) > 2 * MAX_BODY_CHARS
    (root / "repo" / "ledger_rules.py").write_text(text)
    stop = text[:MAX_BODY_CHARS].count("\n") + 1  # the line the stored body stops in
    async with memory_rig(tmp_path, index=True) as (_, s):
        outline = await call(
            s, "repocontext_outline", {"repoId": "repo", "path": "ledger_rules.py"}
        )
        assert outline["truncated"] is True and outline["truncatedAtLine"] == stop
        # a page at a time (MAX_OUTLINE_SYMBOLS each), reaching past the text the tools return
        assert (outline["symbolCount"], outline["nextOffset"]) == (3000, MAX_OUTLINE_SYMBOLS)
        listed = outline["symbols"]
        while "nextOffset" in outline:
            assert len(outline["symbols"]) == MAX_OUTLINE_SYMBOLS
            outline = await call(
                s,
                "repocontext_outline",
                {"repoId": "repo", "path": "ledger_rules.py", "offset": outline["nextOffset"]},
            )
            assert outline["symbolCount"] == 3000
            listed += outline["symbols"]
        names = [f"ledger_rules.settle_ledger_{n}" for n in range(3000)]
        assert [symbol["fullyQualifiedName"] for symbol in listed] == names
        assert listed[-1]["startLine"] == 3 * 2999 + 1 > stop
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "settle_ledger_2999"}
        )
        top = found["hits"][0]
        assert top["entry"]["path"] == "ledger_rules.py"
        assert "symbol:ledger_rules.settle_ledger_2999" in top["reasons"]
        # the hit's place is the declaration's, though no stored line shows it
        assert (top["startLine"], top["endLine"]) == (3 * 2999 + 1, 3 * 2999 + 2)
        assert top["snippet"].startswith(f"{3 * 2999 + 1}: def settle_ledger_2999"), top
        small = await call(
            s, "repocontext_outline", {"repoId": "repo", "path": "src/billing/ledger.py"}
        )
        assert "truncatedAtLine" not in small
        # QA on unjs/ofetch: an offset past the last declaration answered no symbols, no note
        past = await call(
            s,
            "repocontext_outline",
            {"repoId": "repo", "path": "ledger_rules.py", "offset": 5000},
        )
        assert "symbols" not in past and past["symbolCount"] == 3000, past
        assert past["note"] == "offset 5000 is past the file's 3,000 declarations", past

        for budget in (8192, 200_000):
            bundle = await call(
                s,
                "repocontext_context",
                {"repoId": "repo", "task": "settle ledger entry", "responseBudgetTokens": budget},
            )
            entry = next(e for e in bundle["entries"] if e["path"] == "ledger_rules.py")
            assert entry["truncatedAtLine"] == stop and entry.get("endLine", stop) <= stop, budget
            others = [e for e in bundle["entries"] if e["path"].endswith(".py") and e is not entry]
            assert all("truncatedAtLine" not in e for e in others)
        assert entry["content"] == text[:MAX_BODY_CHARS]  # the whole stored body, at 200,000
