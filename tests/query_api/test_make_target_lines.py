"""Hit lines: a question about a Makefile's targets points the Makefile at the rule it asks
for. QA on nedbat/coveragepy: `where is the Makefile target for docs` pointed the Makefile at
its help target's `@echo Available targets:`, the docs rules two hundred lines below."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.make_targets import rule_naming, target_subject
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

MAKEFILE = (
    ".PHONY: help clean docs\n\n"
    "help:\t\t\t## Show this help.\n"
    "\t@echo Available targets:\n"
    "\t@awk -F ':.*##' '/^[^: ]+:.*##/{printf \"%s\\n\",$$1}' $(MAKEFILE_LIST)\n\n"
    "CC := gcc\n\n"
    "clean:\t\t\t## Remove the build output.\n"
    "\trm -rf build\n\n"
    "update_rtd:\t\t#: Update ReadTheDocs with the versions to show\n"
    "\tpython ci/update_rtfd.py\n\n"
    "test:\t\t\t## Run the test suite.\n"
    "\ttox -q\n\n"
    + "".join(f"step{n}:\n\techo step {n}\n\n" for n in range(30))
    + "cogdoc:\t\t\t## Run the docs through cog.\n"
    "\tpython -m cogapp -crP doc/*.rst\n\n"
    "dochtml: cogdoc\t\t## Build the docs HTML output.\n"
    "\tsphinx-build -b html doc doc/_build/html\n"
)
LINES = MAKEFILE.split("\n")


def _line_of(text: str) -> int:
    return next(n for n, line in enumerate(LINES, 1) if line.startswith(text))


@pytest.mark.parametrize(
    ("query", "rule"),
    [
        ("where is the Makefile target for docs", "cogdoc:"),
        ("which make target builds the docs", "dochtml:"),
        ("which make target runs the tests", "test:"),
    ],
)
def test_a_question_about_targets_names_the_rule(query: str, rule: str) -> None:
    start = _line_of(rule)
    assert rule_naming("Makefile", LINES, target_subject(query)) == (start, start + 1)


def test_other_queries_and_files_name_no_rule() -> None:
    assert target_subject("Fix the docs build when sphinx is missing") == ()
    subject = target_subject("where is the Makefile target for docs")
    assert rule_naming("docs/conf.py", ["docs: x"], subject) is None
    assert rule_naming("Makefile", ["CC := gcc", "\techo docs"], subject) is None


async def test_the_makefile_hit_is_at_the_rule(tmp_path: Path) -> None:
    files = {
        "Makefile": MAKEFILE,
        "src/build.py": "def build_docs():\n    return 'docs'\n",
    }
    write_files(tmp_path / "ws" / "repo", files)
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = "where is the Makefile target for docs"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        hit = next(h for h in found["hits"] if h["entry"]["path"] == "Makefile")
        assert hit["startLine"] == _line_of("cogdoc:"), hit


async def test_a_question_for_a_make_target_names_the_makefile(tmp_path: Path) -> None:
    """QA on nedbat/coveragepy: `which make target runs the tests` ranked igor.py and
    control.py (`make_env_id`, `_make_aliases`) first and the Makefile outside the first ten."""
    files = {
        "Makefile": MAKEFILE,
        "tool/igor.py": (
            "def make_env_id(tests):\n    # make an id for the run of the tests\n"
            "    return 'run-' + str(len(tests))\n\n\n"
            "def run_tests(target):\n    # run the tests of the target\n    return target\n"
        ),
        "tool/control.py": "def _make_aliases(target):\n    # make the target's run\n"
        "    return target\n",
    }
    write_files(tmp_path / "ws" / "repo", files)
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = "which make target runs the tests"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        first = found["hits"][0]
        assert first["entry"]["path"] == "Makefile", found["hits"]
        assert first["startLine"] == _line_of("test:"), first
