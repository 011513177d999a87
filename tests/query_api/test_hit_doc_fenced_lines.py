"""Of a Markdown page's lines matching a query alike, one outside a fenced code block is the
hit's (line_preference.LinePreference): a page documents a thing in its prose and tables, and
its examples only use it."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.line_preference import _fenced_lines
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

README = (
    "# validators\n"  # 1
    "\n"  # 2
    "```typescript\n"  # 3
    "export class Post {\n"  # 4
    "  @IsEmail()\n"  # 5
    "  email: string;\n"  # 6
    "}\n"  # 7
    "```\n"  # 8
    + "".join(f"\nThe validation of each field {n} is described below.\n" for n in range(12))
    + "\n| decorator | description |\n"  # 34
    "| --- | --- |\n"  # 35
    "| `@IsEmail()` | Checks if the string is an email. |\n"  # 36
)


def test_the_lines_of_fenced_blocks() -> None:
    assert sorted(_fenced_lines(README.split("\n"))) == [3, 4, 5, 6, 7, 8]
    assert sorted(_fenced_lines(["~~~", "a", "```", "b", "~~~", "c"])) == [1, 2, 3, 4, 5]


async def test_a_docs_hit_is_at_the_line_documenting_it(tmp_path: Path) -> None:
    """QA on typestack/class-validator: `docs for IsEmail` pointed README.md at `@IsEmail()`
    in its first example (line 83), not at the decorators table's row (line 848)."""
    files = {"README.md": README, "src/IsEmail.ts": "export function IsEmail() {}\n"}
    async with indexed_app(tmp_path, files) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query="docs for IsEmail"))
        hit = next(h for h in answer.hits if h.entry.path == "README.md")
        assert (hit.startLine, hit.endLine) == (36, 36), hit
