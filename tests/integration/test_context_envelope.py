"""repocontext_context on a realistic repository (this project's own Python sources, about
a hundred files of every size): at the default budget the bundle carries the search's first
five files, and what the answer spends beyond the packed code (its envelope) stays within
15 % of `responseTokens`, which is the answer's exact cost on the wire; at 4,000 and 2,000
tokens too."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession

from processors.tokens import count_tokens
from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig

pytestmark = [pytest.mark.anyio, pytest.mark.slow]
PROJECT = Path(__file__).resolve().parents[2]
TASKS = [
    "exact fallback breaker after a stall in the retrieval ladder",
    "how are memory claims fenced and renewed",
    "gitignore rules when walking the workspace",
    "tokenize camelCase identifiers for BM25",
    "replay the event log into the SQLite views",
    "compute the token budget of a context bundle",
]
ENVELOPE_SHARE = 0.15
SMALLER = (4000, 2000)  # fewer files, and at 2,000 one declaration a file


def copy_sources(root: Path) -> None:
    for package in ("query_api", "processors", "streams", "repocontext"):
        for source in (PROJECT / package).rglob("*.py"):
            target = root / source.relative_to(PROJECT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)


async def wire_of(s: ClientSession, name: str, args: dict[str, Any]) -> tuple[dict[str, Any], int]:
    result = await s.call_tool(name, args)
    assert not result.isError, result.content
    assert result.structuredContent is not None
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "result": result.model_dump(mode="json", by_alias=True, exclude_none=True),
    }
    wire = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    return result.structuredContent, count_tokens(wire)


def content_on_wire(entry: dict[str, Any]) -> int:
    """The packed code's own tokens: a JSON string in the structured content, and again in
    the text block (itself a JSON string on the wire)."""
    return 2 * count_tokens(json.dumps(entry["content"], ensure_ascii=False))


async def test_default_bundle_covers_top_five_with_a_small_envelope(tmp_path: Path) -> None:
    (tmp_path / "ws" / "repo").mkdir(parents=True)
    copy_sources(tmp_path / "ws" / "repo")
    shares = {}
    async with memory_rig(tmp_path, index=True) as (_, s):
        for task in TASKS:
            search = await call(s, "repocontext_search", {"repoId": "repo", "query": task})
            top5 = list(dict.fromkeys(h["entry"]["path"] for h in search["hits"]))[:5]
            assert len(top5) == 5, (task, search["hits"])
            bundle, wire = await wire_of(s, "repocontext_context", {"repoId": "repo", "task": task})
            packed = [e["path"] for e in bundle["entries"]]
            assert set(top5) <= set(packed), (task, top5, packed)
            assert bundle["responseTokens"] == wire <= 8192, (task, bundle["responseTokens"], wire)
            envelope = wire - sum(content_on_wire(e) for e in bundle["entries"])
            shares[task] = round(envelope / wire, 3)
            assert all(v not in (None, [], {}, "") for v in bundle["entries"][0].values())
            # a smaller budget covers fewer files, each with more of its code, rather than
            # letting the answer's fields outweigh its code
            for budget in SMALLER:
                args = {"repoId": "repo", "task": task, "responseBudgetTokens": budget}
                small, small_wire = await wire_of(s, "repocontext_context", args)
                assert small["entries"] and small["responseTokens"] == small_wire <= budget
                envelope = small_wire - sum(content_on_wire(e) for e in small["entries"])
                shares[f"{task} at {budget:,}"] = round(envelope / small_wire, 3)
    assert max(shares.values()) <= ENVELOPE_SHARE, shares
