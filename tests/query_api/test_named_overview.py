"""`what is middy`: a question asking what the project is by its name is an overview
question, answered by its root README first (streams/stores/views/entry_files.py
`named_overview`). QA on middyjs/middy led with packages/core/index.d.ts, README.md fifth."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

IMPORT = "import middy from '@middy/core'\n"
FILES = {
    "README.md": "# Middy\n\nThe stylish Node.js middleware engine for AWS Lambda.\n",
    "packages/core/index.js": "const middy = (handler) => handler\nexport default middy\n",
    "packages/core/index.d.ts": "declare function middy(handler: any): any\nexport default middy\n",
    "packages/http-cors/index.js": IMPORT + "export const cors = () => middy\n",
    "packages/validator/index.js": IMPORT + "export const check = () => middy\n",
}


async def _first(tmp_path: Path, queries: list[str]) -> list[str | None]:
    async with indexed_app(tmp_path, FILES) as app:
        answers = [
            await app.service.search(t.SearchArgs(repoId="repo", query=query)) for query in queries
        ]
    return [answer.hits[0].entry.path if answer.hits else None for answer in answers]


async def test_what_the_project_is_by_its_name_leads_with_its_readme(tmp_path: Path) -> None:
    queries = ["what is middy", "what does Middy do?", "what is repo"]  # README title, repoId
    assert await _first(tmp_path, queries) == ["README.md"] * 3


async def test_what_another_name_is_is_no_overview(tmp_path: Path) -> None:
    assert await _first(tmp_path, ["what is cors"]) == ["packages/http-cors/index.js"]


# eza-community/eza's README opens with an SPDX comment and a sponsor's block, its own `###`
# heading above the project's `# eza`; others name the project in an `<h1>` below a logo
PROLOGUE = (
    "<!--\nSPDX-License-Identifier: EUPL-1.2\n-->\n\n"
    '<div align="center">\n   <sup>Special thanks to:</sup>\n\n'
    "### [Warp, the AI terminal](https://example.invalid)\n</div>\n\n"
    "# eza\n\nA modern replacement for ls.\n"
)
SOURCES = {
    "src/main.rs": "fn main() { eza::run() }\n",
    "src/lib.rs": "pub fn run() {} // eza lists files\n",
    "src/theme.rs": "// what eza paints\npub struct Theme;\n",
}


@pytest.mark.parametrize(
    ("readme", "query"),
    [
        (PROLOGUE, "what does eza do"),
        (
            '<p align="center"><img src="logo.png"></p>\n<h1 align="center">Eza</h1>\n',
            "what is eza",
        ),
    ],
)
async def test_a_readme_title_below_a_prologue_names_the_project(
    tmp_path: Path, readme: str, query: str
) -> None:
    async with indexed_app(tmp_path, {"README.md": readme, **SOURCES}) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
    assert [hit.entry.path for hit in answer.hits][:1] == ["README.md"]


@pytest.mark.parametrize("query", ["what does eza do", "what does this project do"])
async def test_the_readme_is_shown_from_its_title(tmp_path: Path, query: str) -> None:
    """Not from its SPDX comment or its sponsor's links (QA on eza-community/eza pointed
    `what does eza do` at the sponsor's block, lines holding `eza` in their addresses)."""
    async with indexed_app(tmp_path, {"README.md": PROLOGUE, **SOURCES}) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
    first = answer.hits[0]
    title = PROLOGUE.split("\n").index("# eza") + 1
    assert (first.entry.path, first.startLine) == ("README.md", title)
    assert "A modern replacement for ls." in (first.snippet or "")
