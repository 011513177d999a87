"""A definition question's bundle sends the declaration of the name it asks for, though a
neighbour shares more of the question's words and holds the vectors' passage. QA on
remix-run/react-router: `where is the Link component defined` at 2,000 tokens sent lib.tsx's
`interface LinkProps` (its comments say `component` and `defined`), where the search pointed
at `export const Link = React.forwardRef(...)`."""

from __future__ import annotations

from query_api.context.spans import select_spans, task_stems
from streams.stores.views.symbols import SymbolRow

TASK = "where is the Link component defined"


def _row(fq: str, kind: str, start: int, end: int) -> SymbolRow:
    return SymbolRow("r", "lib.tsx", fq, fq.rpartition(".")[2], kind, start, end, "xx", fq)


def _file() -> tuple[list[str], list[SymbolRow]]:
    lines = ["  // filler"] * 300
    lines[49] = "export interface LinkProps {"
    lines[50] = "  /** The component a link renders, defined by the caller. */"
    lines[51] = "  reloadDocument?: boolean;"
    lines[139] = "}"
    lines[199] = "export const Link = React.forwardRef<HTMLAnchorElement, LinkProps>("
    lines[200] = "  function LinkWithRef({ to, ...rest }, ref) {"
    lines[259] = ");"
    return lines, [_row("LinkProps", "Interface", 50, 140), _row("Link", "Field", 200, 260)]


def test_the_declaration_asked_for_is_sent() -> None:
    lines, symbols = _file()
    spans = select_spans(
        symbols,
        len(lines),
        task_stems(TASK),
        max_lines=70,
        lines=lines,
        hot=(50, 60),
        hit=(200, 205),
        defined="Link",
    )
    assert any(a <= 200 <= z for a, z, _ in spans), spans


def test_without_the_definition_form_the_words_and_passage_decide() -> None:
    lines, symbols = _file()
    spans = select_spans(
        symbols,
        len(lines),
        task_stems(TASK),
        max_lines=70,
        lines=lines,
        hot=(50, 60),
        hit=(200, 205),
    )
    assert any(a <= 50 <= z for a, z, _ in spans), spans


def test_a_qualified_definition_names_the_member_only() -> None:
    member = _row("Router.handle", "Method", 10, 20)
    other = _row("Server.handle", "Method", 30, 40)
    lines = ["x"] * 60
    spans = select_spans(
        [member, other], 60, task_stems("where is Router.handle defined"), max_lines=15,
        lines=lines, defined="Router.handle",
    )  # fmt: skip
    assert spans and spans[0][0] <= 10 <= spans[0][1], spans
