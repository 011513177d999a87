"""What implements a Python Protocol: the classes declaring its members, which never name it.
QA on nedbat/coveragepy: `which classes implement the Reporter protocol` ranked report_core.py
(`class Reporter(Protocol)`) first and then files by their words, not the reporters declaring
its `report_type` and `report`."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def _reporter(name: str, kind: str) -> str:
    return (
        f"class {name}:\n"
        f'    """Writes the {kind} output."""\n\n'
        f'    report_type = "{kind} report"\n\n'
        "    def __init__(self, coverage):\n        self.coverage = coverage\n\n"
        "    def report(self, morfs, outfile):\n        return 100.0\n"
    )


FILES = {
    "pkg/__init__.py": "",
    "pkg/report_core.py": (
        "from typing import Protocol\n\n\n"
        "class Reporter(Protocol):\n"
        '    """What we expect of reporters: which classes implement the protocol."""\n\n'
        "    report_type: str\n\n"
        "    def report(self, morfs, outfile) -> float:\n"
        '        """Generate a report of `morfs`, written to `outfile`."""\n\n\n'
        "def render_report(reporter: Reporter, morfs) -> float:\n"
        "    return reporter.report(morfs, None)\n"
    ),
    "pkg/jsonreport.py": _reporter("JsonReporter", "JSON"),
    "pkg/xmlreport.py": _reporter("XmlReporter", "XML"),
    # a report method without the protocol's field: no reporter
    "pkg/control.py": (
        "class Coverage:\n"
        '    """Which classes implement the reporting protocol: see report_core."""\n\n'
        "    def report(self, morfs=None, outfile=None):\n        return 0.0\n"
    ),
}


@pytest.mark.parametrize(
    "query",
    [
        "what implements Reporter",
        "which classes implement the Reporter protocol",
        "where is the Reporter protocol implemented",
    ],
)
async def test_the_classes_declaring_a_protocols_members_implement_it(
    tmp_path: Path, query: str
) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        paths = [h.entry.path for h in answer.hits]
        assert set(paths[:2]) == {"pkg/jsonreport.py", "pkg/xmlreport.py"}, (query, answer.hits)
        assert "implements:Reporter" in answer.hits[0].reasons, answer.hits[0]
        assert "pkg/control.py" not in paths[:3], paths
