"""A Markdown file's outline is its headings (query_api/symbols/markdown_outline.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.symbols.markdown_outline import markdown_headings
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

README = """\
---
title: fd
---
# fd

A simple, fast alternative to `find`.

## Installation

### From source

```bash
# not a heading: a comment in a code block
cargo install fd-find
```

Usage
-----

Run `fd PATTERN`.

- a list item
---

## Changelog ##
"""


def test_the_headings_are_outlined_with_their_sections() -> None:
    rows = markdown_headings("r", "README.md", README)
    got = [(r.fq_name, r.start_line, r.end_line) for r in rows]
    assert got == [
        ("fd", 4, 25),
        ("Installation", 8, 16),
        ("From source", 10, 16),
        ("Usage", 17, 24),
        ("Changelog", 25, 25),
    ], got
    assert {(r.kind, r.signature) for r in rows} == {("Other", "")}


def test_a_file_without_headings_outlines_nothing() -> None:
    assert markdown_headings("r", "notes.md", "just text\n\n```\n# code\n```\n") == []
    assert markdown_headings("r", "empty.md", "") == []
    # a line of dashes under a paragraph of several lines is no heading here, nor one alone
    assert markdown_headings("r", "a.md", "one\ntwo\n---\n\n---\n") == []


@pytest.mark.anyio
async def test_outline_of_a_readme_lists_its_headings(tmp_path: Path) -> None:
    """QA on sharkdp/fd: outline of README.md answered no symbols."""
    write_files(
        tmp_path / "ws" / "repo", {"README.md": README, "src/main.py": "def run():\n    pass\n"}
    )
    async with memory_rig(tmp_path, index=True) as (_, s):
        got = await call(s, "repocontext_outline", {"repoId": "repo", "path": "README.md"})
        assert [(x["fullyQualifiedName"], x["startLine"]) for x in got["symbols"]][:2] == [
            ("fd", 4),
            ("Installation", 8),
        ], got
        code = await call(s, "repocontext_outline", {"repoId": "repo", "path": "src/main.py"})
        assert [x["fullyQualifiedName"] for x in code["symbols"]] == ["main.run"], code
