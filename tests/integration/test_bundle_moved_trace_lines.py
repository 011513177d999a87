"""A bundle for a Python traceback from another version of a file (an installed release)
sends the code its frame quotes, where the repository's file holds it, as search points its
hit there (named_lines.quoted_line). QA on Textualize/rich: a trace naming `rich/table.py`,
line 560 (`width_ranges = [`) had the bundle send the code around line 560 of the checkout;
that code is at 529. The real index, the MCP client."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

HEAD = [f"def helper_{i}(value):\n    return value + {i}\n\n\n" for i in range(60)]
MEASURE = (
    "def measure_widths(widths):\n"
    "    total = sum(widths)\n"
    "    width_ranges = [\n"
    "        w / total for w in widths\n"
    "    ]\n"
    "    return width_ranges\n\n\n"
)
TAIL = [f"def other_{i}(value):\n    return value * {i}\n\n\n" for i in range(60)]
BODY = "".join([*HEAD, MEASURE, *TAIL])
MEASURE_LINE = 4 * 60 + 3  # `    width_ranges = [`

TRACE = """Traceback (most recent call last):
  File "/venv/lib/python3.12/site-packages/pkg/table.py", line 400, in measure_widths
    width_ranges = [
ZeroDivisionError: division by zero"""


async def test_a_bundle_sends_the_line_a_moved_frame_quotes(tmp_path: Path) -> None:
    assert BODY.split("\n")[MEASURE_LINE - 1] == "    width_ranges = ["
    assert BODY.split("\n")[399].strip() != "width_ranges = ["  # line 400 holds other code
    write_files(tmp_path / "ws" / "repo", {"pkg/table.py": BODY, "pkg/__init__.py": ""})
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(
            s,
            "repocontext_context",
            {"repoId": "repo", "task": TRACE, "responseBudgetTokens": 600},
        )
    [entry] = [e for e in found["entries"] if e["path"] == "pkg/table.py"]
    spans = [(u["startLine"], u["endLine"]) for u in entry["units"] if "startLine" in u]
    spans = spans or [(entry["startLine"], entry["endLine"])]
    assert any(a <= MEASURE_LINE <= z for a, z in spans), spans
