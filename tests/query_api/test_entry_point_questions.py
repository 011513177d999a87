"""`where is the entry point of the crate` names the program's entry files (src/lib.rs,
src/main.rs, main.go, __main__.py, a root index.ts), and `what does this crate do` the root
README first, then those. QA on console-rs/indicatif: the first ranked src/state.rs (`pub(crate)
struct BarState`, for `crate`) first and src/lib.rs fifth, and the second answered ten files
holding `crate`, README.md in none of its places."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

STATE = "".join(
    f"/// A part of the bar's state, the crate's own.\npub(crate) struct State{i} {{\n"
    f"    pub(crate) pos: u64,\n}}\n\n"
    for i in range(8)
)
FILES = {
    "Cargo.toml": '[package]\nname = "gauge"\nversion = "0.1.0"\n',
    "README.md": "# gauge\n\nA progress bar library for command line programs.\n",
    "src/lib.rs": "//! gauge draws progress bars.\n\nmod state;\n",
    "src/state.rs": STATE,
    "examples/demo/main.rs": 'fn main() {\n    println!("demo");\n}\n',
}


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("where is the entry point of the crate", ["src/lib.rs"]),
        ("what is the main entry point", ["src/lib.rs"]),
        ("what does this crate do", ["README.md", "src/lib.rs"]),
        ("give me an overview of this project", ["README.md", "src/lib.rs"]),
    ],
)
async def test_the_entry_files_answer(tmp_path: Path, query: str, first: list[str]) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        found = await app.service.search(t.SearchArgs(repoId="gauge", query=query))
        paths = [h.entry.path for h in found.hits]
        assert paths[: len(first)] == first, (query, paths)


BINARY = {
    **{k: v for k, v in FILES.items() if k != "src/lib.rs"},
    "src/main.rs": ("mod state;\n\nfn main() {\n    state::run();\n}\n"),
}


@pytest.mark.parametrize(
    "query",
    [
        "where is the entry point of the binary",
        "where does the executable start",
        "what is the entry point of the binary?",
    ],
)
async def test_the_binary_starts_at_its_main(tmp_path: Path, query: str) -> None:
    # QA on ajeetdsouza/zoxide: `where is the entry point of the binary` matched no entry form
    # and put src/main.rs nowhere in the first ten
    async with indexed_app(tmp_path, BINARY, "gauge") as app:
        found = await app.service.search(t.SearchArgs(repoId="gauge", query=query))
        paths = [h.entry.path for h in found.hits]
        assert paths[:1] == ["src/main.rs"], (query, paths)


async def test_the_entry_file_is_shown_from_its_head(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        query = "where is the entry point of the crate"
        found = await app.service.search(t.SearchArgs(repoId="gauge", query=query))
        assert found.hits[0].startLine == 1, found.hits[0]


MONOREPO = {
    "package.json": '{"name": "@mw/monorepo", "private": true}\n',
    "README.md": "# mw\n\nA middleware engine: compose middlewares around a handler.\n",
    **{
        f"packages/{name}/index.js": (
            "// Copyright the mw project contributors.\n// SPDX-License-Identifier: MIT\n"
            f"// the {name} middleware of this project\n"
            f"export default () => ({{ before: (request) => request.{name} }});\n"
        )
        for name in ("core", "cors", "router", "logger", "validator", "parser")
    },
}


async def test_an_overview_of_a_monorepo_leads_with_its_readme(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, MONOREPO, "mw") as app:
        query = "what does this project do"
        found = await app.service.search(t.SearchArgs(repoId="mw", query=query))
        paths = [h.entry.path for h in found.hits]
        assert paths[0] == "README.md", paths


async def test_the_entry_point_of_a_package_is_its_entry_file(tmp_path: Path) -> None:
    files = {**MONOREPO, "packages/core/util.js": "export const core = 1;\n"}
    async with indexed_app(tmp_path, files, "mw") as app:
        query = "where is the entry point of the core package"
        found = await app.service.search(t.SearchArgs(repoId="mw", query=query))
        paths = [h.entry.path for h in found.hits]
        assert paths[0] == "packages/core/index.js", paths
        assert found.hits[0].startLine == 1, found.hits[0]
        other = next(h for h in found.hits if h.entry.path == "packages/cors/index.js")
        assert other.startLine != 1, other  # another package's entry keeps its own lines
