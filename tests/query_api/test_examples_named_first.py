"""Asked for an example (`example of a spinner`, `example of a download progress bar`), the
example programs named for the subject come first among the examples holding it. QA on
console-rs/indicatif: `example of a download progress bar` put examples/multi-tree-ext.rs
(holding `progress_bar` fields) above examples/download.rs, and `example of a spinner` ranked
examples/long-spinner.rs fifth, below four examples whose templates hold `{spinner}`."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

TEMPLATES = "    // An example of a tree of bars, each a spinner or a progress bar.\n" + "".join(
    f'    let style_{i} = "{{spinner:.green}} {{prefix}} [{{bar}}] progress bar {i}";\n'
    for i in range(8)
)
FILES = {
    "Cargo.toml": '[package]\nname = "gauge"\nversion = "0.1.0"\n',
    "src/lib.rs": "/// A progress bar.\npub struct ProgressBar;\n",
    "examples/multi-tree.rs": (
        "struct Item {\n    progress_bar: u8,\n}\n\nfn main() {\n" + TEMPLATES + "}\n"
    ),
    "examples/yarnish.rs": "fn main() {\n" + TEMPLATES + "}\n",
    "examples/long-spinner.rs": (
        'fn main() {\n    let style = "{spinner:.blue} {msg}";\n    println!("{style}");\n}\n'
    ),
    "examples/download.rs": (
        "fn main() {\n    // a download shown by a progress bar\n"
        '    let style = "{bytes}/{total_bytes}";\n    println!("{style}");\n}\n'
    ),
}


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("example of a spinner", "examples/long-spinner.rs"),
        ("example of a download progress bar", "examples/download.rs"),
    ],
)
async def test_the_example_named_for_the_subject_is_first(
    tmp_path: Path, query: str, first: str
) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        found = await app.service.search(t.SearchArgs(repoId="gauge", query=query))
        assert found.hits[0].entry.path == first, [h.entry.path for h in found.hits]
