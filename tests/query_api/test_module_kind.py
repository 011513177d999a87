"""`where is the render module`: a definition query for a module by its kind answers the
Rust `mod render;` declaring it and the file keeping it (query_api/retrieval/module_kind.py).
QA on eza-community/eza matched no definition form and ranked main.rs (`r.render(...)`)
first, neither src/output/mod.rs nor src/output/render/mod.rs among the first three."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

CALLS = "".join(
    f"    let r{i} = output::render::render({i}); // render the row\n" for i in range(12)
)
RUST = {
    "Cargo.toml": '[package]\nname = "lister"\nversion = "0.1.0"\n',
    "src/main.rs": f"mod output;\n\nfn main() {{\n{CALLS}}}\n",
    "src/output/mod.rs": "pub mod render;\npub mod table;\n",
    "src/output/table.rs": "pub fn render_table() -> u8 { super::render::render(1) }\n",
    "src/output/render/mod.rs": "mod cell;\n\npub fn render(row: u8) -> u8 {\n    row\n}\n",
    "src/output/render/cell.rs": "pub struct Cell;\n",
}
PYTHON = {
    "pkg/__init__.py": "",
    "pkg/utils.py": "def slug(text):\n    return text.lower()\n",
    "pkg/app.py": "".join(f"from pkg import utils  # utils {i}\n" for i in range(6)),
}


async def _first(tmp_path: Path, files: dict[str, str], query: str) -> list[str]:
    async with indexed_app(tmp_path, files) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
    return [hit.entry.path for hit in answer.hits if hit.entry.path]


@pytest.mark.parametrize(
    "query",
    [
        "where is the render module",
        "where is the render module declared",
        "which file declares pub mod render",  # its declaration written as code
    ],
)
async def test_a_rust_module_is_its_mod_line_and_its_file(tmp_path: Path, query: str) -> None:
    paths = await _first(tmp_path, RUST, query)
    assert set(paths[:2]) == {"src/output/mod.rs", "src/output/render/mod.rs"}, paths


async def test_a_module_of_files_is_its_file(tmp_path: Path) -> None:
    paths = await _first(tmp_path, PYTHON, "where is the utils module defined")
    assert paths[:1] == ["pkg/utils.py"], paths
