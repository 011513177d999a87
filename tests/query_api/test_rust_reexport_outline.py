"""The outline of a Rust crate root declaring only modules (`mod format;`) names what it
re-exports (`pub use crate::format::{HumanBytes, HumanDuration};`), by the file declaring it.
QA on console-rs/indicatif: `outline src/lib.rs` listed ten `mod` lines and a test trait, and
no word of the seventeen names the crate's API is, which its `pub use` lines hand on."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas.symbols import OutlineArgs
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

LIB = (
    '//! A gauge crate.\n\nmod format;\nmod multi;\n#[cfg(feature = "extra")]\nmod extra;\n\n'
    "pub use crate::format::{\n    HumanBytes, HumanDuration,\n};\n"
    "pub use crate::multi::MultiProgress as Multi;\n"
    '#[cfg(feature = "extra")]\npub use crate::extra::Extra;\n\n'
    "#[cfg(test)]\nmod tests {\n    trait MustBeThreadSafe: Send + Sync {}\n}\n"
)
FILES = {
    "Cargo.toml": '[package]\nname = "gauge"\nversion = "0.1.0"\n',
    "src/lib.rs": LIB,
    "src/format.rs": "pub struct HumanBytes(pub u64);\npub struct HumanDuration(pub u64);\n",
    "src/multi.rs": "pub struct MultiProgress;\n",
    "src/extra.rs": "pub struct Extra;\n",
}


async def test_a_crate_root_of_modules_names_its_reexports(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        outline = await app.services.symbols.outline(OutlineArgs(repoId="gauge", path="src/lib.rs"))
        note = outline.note or ""
        assert "src/format.rs (HumanBytes, HumanDuration)" in note, note
        assert "src/multi.rs (Multi)" in note, note
        assert "src/extra.rs (Extra)" in note, note
