"""A users query asking for tests (`which tests use InMemoryTerm`, `which tests call
finish_with_message`) places the test files using the name before the code using it. QA on
console-rs/indicatif: the first ranked src/lib.rs (`pub use crate::in_memory::InMemoryTerm;`)
above tests/render.rs, and the second filled its ten places with examples calling the method,
leaving out tests/render.rs, which calls it seven times."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

BAR = (
    "pub struct Bar;\n\nimpl Bar {\n"
    "    pub fn finish_with_message(&self, msg: &str) -> usize {\n        msg.len()\n    }\n}\n"
)
EXAMPLES = {
    f"examples/demo_{i}.rs": (
        "use gauge::Bar;\n\nfn main() {\n    let bar = Bar;\n"
        f'    bar.finish_with_message("done {i}");\n}}\n'
    )
    for i in range(12)
}
FILES = {
    "Cargo.toml": '[package]\nname = "gauge"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod bar;\npub use crate::bar::Bar;\n",
    "src/bar.rs": BAR,
    **EXAMPLES,
    "tests/render.rs": (
        "use gauge::Bar;\n\n#[test]\nfn finishing() {\n    let bar = Bar;\n"
        '    let shown = bar.finish_with_message("ok");\n    assert_eq!(shown, 2);\n}\n'
    ),
}


async def test_the_tests_using_the_name_come_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        for query in ("which tests call finish_with_message", "what tests use Bar"):
            found = await app.service.search(t.SearchArgs(repoId="gauge", query=query, k=10))
            paths = [h.entry.path for h in found.hits]
            assert paths[0] == "tests/render.rs", (query, paths)
