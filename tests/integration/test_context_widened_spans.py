"""The room a bundle leaves once no further file fits goes to the spans it sends, widened on
both sides (query_api/context/fill.py): gin's recovery.go went out as 71 lines of a
2,000-token answer that left 530 tokens unused, and its envelope passed 15 % of it. Over the
real MCP client and server."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio


def function(n: int) -> str:
    body = "".join(f"    step_{n}_{i} = frame_{i}.lineno + {i}\n" for i in range(9))
    return f"def handler_{n}(frame_{n}: object) -> int:\n{body}    return step_{n}_0\n\n\n"


def module() -> str:
    named = (
        "def stack_recovery(frame: object) -> list[str]:\n"
        '    """The lines of the stack a panic unwound."""\n'
        "    lines = [str(frame)]\n"
        "    return lines\n\n\n"
    )
    return (
        "".join(function(n) for n in range(40))
        + named
        + "".join(function(n) for n in range(40, 80))
    )


async def test_a_span_widens_into_the_room_no_further_file_takes(tmp_path: Path) -> None:
    workspace = rig_settings(tmp_path).workspace_root
    assert workspace is not None
    repo = workspace / "repo"
    (repo / "recovery.py").write_text(module())
    async with memory_rig(tmp_path, index=True) as (_, s):
        args = {"repoId": "repo", "task": "stack recovery", "responseBudgetTokens": 2000}
        answer = await call(s, "repocontext_context", args)
        [entry] = answer["entries"]
        assert entry["path"] == "recovery.py"
        named = module().split("\n").index("def stack_recovery(frame: object) -> list[str]:") + 1
        assert entry["startLine"] < named < entry["endLine"]  # the function asked for
        assert entry["tokenCount"] < entry["fullReadTokenCount"]  # a span, not the file
        # the lines around it fill what no other file could take
        assert 2000 - answer["responseTokens"] < 100, answer["responseTokens"]
