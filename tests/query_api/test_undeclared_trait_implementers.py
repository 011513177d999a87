"""`what implements Drop`, `which types implement io::Write`: a trait no file of the repository
declares (the standard library's) is implemented by the files declaring an `impl` of it, found
by its name in their text. QA on console-rs/indicatif: `what implements Drop` placed no file
and pointed its hits at `drop(state);` calls, the three `impl Drop for` blocks nowhere in the
snippets, and `which types implement io::Write` ranked a `W: io::Write` bound first."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from schemas.bundle import ContextArgs
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

CALLS = "".join(
    f"/// Drops the state of bar {i} early.\npub fn release_{i}(state: Vec<u8>) {{\n"
    "    drop(state);\n}\n\n"
    for i in range(8)
)
FILES = {
    "Cargo.toml": '[package]\nname = "gauge"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod release;\nmod state;\nmod ticker;\nmod writer;\n",
    "src/release.rs": CALLS,
    "src/ticker.rs": (
        "pub struct Ticker {\n    stopped: bool,\n}\n\n"
        "impl Drop for Ticker {\n    fn drop(&mut self) {\n        self.stopped = true;\n    }\n}\n"
    ),
    "src/state.rs": (
        "pub struct BarState {\n    lines: Vec<String>,\n}\n\n"
        "impl BarState {\n    pub fn clear(&mut self) {\n        self.lines.clear();\n    }\n}\n\n"
        "impl Drop for BarState {\n    fn drop(&mut self) {\n        self.clear();\n    }\n}\n"
    ),
    "src/writer.rs": (
        "use std::io;\n\npub fn wrap<W: io::Write>(write: W) -> Wrapped<W> {\n"
        "    Wrapped { it: write }\n}\n\npub struct Wrapped<W> {\n    it: W,\n}\n\n"
        "impl<W: io::Write> io::Write for Wrapped<W> {\n"
        "    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {\n"
        "        self.it.write(buf)\n    }\n\n"
        "    fn flush(&mut self) -> io::Result<()> {\n        self.it.flush()\n    }\n}\n"
    ),
}


async def test_the_files_implementing_a_standard_trait_are_placed(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        found = await app.service.search(t.SearchArgs(repoId="gauge", query="what implements Drop"))
        placed = {h.entry.path: h for h in found.hits if "uses:Drop" in h.reasons}
        assert set(placed) == {"src/ticker.rs", "src/state.rs"}, [
            (h.entry.path, h.reasons) for h in found.hits
        ]
        assert {h.entry.path for h in found.hits[:2]} == set(placed), found.hits
        assert placed["src/state.rs"].startLine == 11, placed["src/state.rs"]
        found = await app.service.search(
            t.SearchArgs(repoId="gauge", query="which types implement io::Write")
        )
        first = found.hits[0]
        assert first.entry.path == "src/writer.rs", [h.entry.path for h in found.hits]
        assert first.snippet is not None and "io::Write for Wrapped" in first.snippet, first


STATE = (
    "pub struct BarState {\n    lines: Vec<String>,\n}\n\n"
    "impl BarState {\n    pub fn clear(&mut self) {\n        self.lines.clear();\n    }\n}\n\n"
    "impl Drop for BarState {\n    fn drop(&mut self) {\n        self.clear();\n    }\n}\n\n"
    + "".join(
        f"/// Counts the steps of estimate {i} of the bar's rate.\n"
        f"pub fn estimate_{i}(steps: u64) -> u64 {{\n"
        + "".join(f"    let step_{j} = steps / {j + 2};\n" for j in range(10))
        + "    steps\n}\n\n"
        for i in range(12)
    )
    + "/// The rate the bar's estimate implements.\npub fn implemented_rate() -> u64 {\n    1\n}\n"
)


async def test_the_bundle_sends_the_impl_block_no_declaration_holds(tmp_path: Path) -> None:
    files = {**FILES, "src/state.rs": STATE}
    async with indexed_app(tmp_path, files, "gauge") as app:
        args = ContextArgs(repoId="gauge", task="what implements Drop", responseBudgetTokens=2000)
        bundle = await app.services.bundle.context(args)
        entry = next(e for e in bundle.entries if e.path == "src/state.rs")
        assert "impl Drop for BarState {" in entry.content, (entry.startLine, entry.content[:300])
