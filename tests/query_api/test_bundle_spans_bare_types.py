"""A task naming a type whose declaration holds no code (a Rust tuple struct, `pub struct
HumanDuration(pub Duration);`) is sent the methods its `impl` blocks declare, where its code
is. QA on console-rs/indicatif: `Fix overflow in HumanDuration when the duration is very
large` at 4,000 tokens sent src/format.rs's lines 1-49 (the constants and the struct's one
line padded with other structs' doc comments), not `impl fmt::Display for HumanDuration`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.context.spans import select_spans, task_stems
from schemas.bundle import ContextArgs
from streams.stores.views.symbols import SymbolRow
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def sym(fq: str, kind: str, start: int, end: int) -> SymbolRow:
    name = fq.rpartition(".")[2]
    return SymbolRow("r", "src/format.rs", fq, name, kind, start, end, "xx", name)


def test_the_methods_of_a_type_without_code_are_its_span() -> None:
    symbols = [
        sym("HumanDuration", "Type", 18, 19),
        sym("HumanBytes", "Type", 33, 34),
        sym("HumanBytes.fmt", "Method", 142, 147),
        sym("HumanDuration.fmt", "Method", 108, 129),
        sym("Gauge", "Type", 200, 230),  # fields: its own code
        sym("Gauge.fmt", "Method", 240, 250),
    ]
    spans = select_spans(symbols, 400, task_stems("Fix overflow in HumanDuration"))
    assert "HumanDuration.fmt" in [fq for _, _, fq in spans], spans
    spans = select_spans(symbols, 400, task_stems("Fix overflow in Gauge"))
    assert "Gauge.fmt" not in [fq for _, _, fq in spans], spans


STRUCTS = "".join(
    f"/// Formats a {name.lower()} for people to read.\n///\n/// # Examples\n"
    + "".join(f'/// assert_eq!("{i} x", format!("{{}}", {name}({i})));\n' for i in range(6))
    + f"#[derive(Debug)]\npub struct {name}(pub u64);\n\n"
    for name in ("HumanBytes", "DecimalBytes", "BinaryBytes", "HumanCount")
)
IMPLS = "".join(
    f"impl fmt::Display for {name} {{\n"
    "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
    + "".join(f"        let step_{i} = self.0 / {i + 2};\n" for i in range(8))
    + '        write!(f, "{} {}", step_0, step_1)\n    }\n}\n\n'
    for name in ("HumanBytes", "DecimalBytes", "BinaryBytes", "HumanCount")
)
FORMAT = (
    "use std::fmt;\nuse std::time::Duration;\n\n"
    "/// Wraps a duration for human readable formatting.\n#[derive(Debug)]\n"
    "pub struct HumanDuration(pub Duration);\n\n"
    + STRUCTS
    + IMPLS
    + "impl fmt::Display for HumanDuration {\n"
    "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
    "        let secs = self.0.as_secs();\n"
    "        let units = secs.saturating_add(30) / 60;\n"
    '        write!(f, "{} minutes", units)\n    }\n}\n'
)
FILES = {
    "Cargo.toml": '[package]\nname = "gauge"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod format;\npub use crate::format::HumanDuration;\n",
    "src/format.rs": FORMAT,
}


async def test_the_bundle_sends_the_impl_of_the_type_the_task_names(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        args = ContextArgs(
            repoId="gauge",
            task="Fix overflow in HumanDuration when the duration is very large",
            responseBudgetTokens=2000,
        )
        bundle = await app.services.bundle.context(args)
        entry = next(e for e in bundle.entries if e.path == "src/format.rs")
        sent = entry.content
        assert "impl fmt::Display for HumanDuration {" in sent, (entry.startLine, sent)
        assert "secs.saturating_add(30)" in sent, sent
