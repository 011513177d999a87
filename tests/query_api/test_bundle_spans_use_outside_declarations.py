"""A users query's bundle sends the use the search pointed at when no declaration holds it (a
Rust impl's head, a module-level call), first: only declarations whose lines name the name
were sent. QA on serde-rs/json: `what implements the Formatter trait` at 2,000 tokens sent
src/ser.rs's `format_escaped_str<W, F: Formatter>` (a bound), not `impl Formatter for
CompactFormatter {}` (line 1941), where the search hit pointed."""

from __future__ import annotations

from query_api.context.spans import select_spans, task_stems
from streams.stores.views.symbols import SymbolRow


def _row(fq: str, kind: str, start: int, end: int) -> SymbolRow:
    return SymbolRow("r", "src/ser.rs", fq, fq.rpartition(".")[2], kind, start, end, "xx", fq)


def test_a_use_outside_every_declaration_is_sent_first() -> None:
    lines = ["// filler"] * 200
    lines[9] = "pub trait Formatter {"
    lines[10] = "    fn write_null(&mut self) {}"
    lines[11] = "}"
    lines[59] = "fn escape<W, F: ?Sized + Formatter>(writer: &mut W, formatter: &mut F) {"
    lines[60] = "    formatter.write_null();"
    lines[61] = "}"
    lines[119] = "pub struct CompactFormatter;"
    lines[121] = "impl Formatter for CompactFormatter {}"
    symbols = [
        _row("Formatter", "Interface", 10, 12),
        _row("Formatter.write_null", "Method", 11, 11),
        _row("escape", "Function", 60, 62),
        _row("CompactFormatter", "Type", 120, 120),
    ]
    spans = select_spans(
        symbols,
        len(lines),
        task_stems("what implements the Formatter trait"),
        max_lines=12,
        lines=lines,
        hit=(122, 122),
        used_name="Formatter",
    )
    assert any(a <= 122 <= z for a, z, _ in spans), spans
