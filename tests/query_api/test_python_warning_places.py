"""A pasted Python warning (`path:line: CoverageWarning: message`, its source line quoted
below) ranks the file it names first, at the line. QA on nedbat/coveragepy: a warning issued
by site-packages/coverage/inorout.py ranked exceptions.py (`class CoverageWarning`) first."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.named_lines import frames
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILLER = "".join(f"\n\ndef helper_{n}(value):\n    return value * {n}\n" for n in range(20))
INOROUT = (
    "from pkg.exceptions import CoverageWarning\n\n\n"
    "class InOrOut:\n"
    "    def warn_unimported_source(self):\n"
    "        for pkg in self.source_pkgs_unmatched:\n"
    '            self.warn(f"Module {pkg} was never imported.", slug="module-not-imported")\n'
    + FILLER
)
FILES = {
    "pkg/inorout.py": INOROUT,
    "pkg/exceptions.py": (
        "class CoverageWarning(Warning):\n"
        '    """A warning about coverage: a module never imported, no data collected."""\n'
    ),
    "pkg/control.py": "def warn(msg):\n    # issue a CoverageWarning for a module never imported\n",
}
LINE = INOROUT.split("\n").index(next(x for x in INOROUT.split("\n") if "never imported" in x)) + 1
WARNING = (
    f"/home/u/.venv/lib/python3.12/site-packages/pkg/inorout.py:{LINE}: CoverageWarning: "
    "Module foo was never imported. (module-not-imported)\n"
    '  self.warn(f"Module {pkg} was never imported.", slug="module-not-imported")'
)


async def test_a_pasted_warning_ranks_the_file_issuing_it_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": WARNING})
        first = found["hits"][0]
        assert first["entry"]["path"] == "pkg/inorout.py", found["hits"]
        assert first["startLine"] == LINE, first


def test_only_a_warning_line_is_a_place() -> None:
    assert [p.first for p in frames(WARNING)] == [LINE]
    # pytest's summary indents it; a sentence naming a warning names no place
    assert [p.path for p in frames("  src/a.py:3: DeprecationWarning: x is old\n    x()")] == [
        "src/a.py"
    ]
    assert frames("fix: silence the DeprecationWarning: x is old in a.py") == []
