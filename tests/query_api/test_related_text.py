"""The text block of a related answer (query_api.answers.related_text)."""

from __future__ import annotations

from query_api.answers.related_text import related_lines
from schemas import symbols as sy


def test_a_files_line_names_at_most_twenty_symbols() -> None:
    """QA on sharkdp/fd: related wrote 94 test names on one line. The text names the first
    MAX_NAMES_SHOWN and counts the rest; the structured list keeps every one."""
    tests = [sy.SymbolAt(symbol=f"tests.case_{n}", path="src/walk.rs") for n in range(94)]
    answer = sy.RelatedResult(repoId="r", path="src/walk.rs", exists=True, tests=tests)
    line = related_lines(answer)[-1]
    assert line.startswith("  src/walk.rs: tests.case_0, tests.case_1,"), line
    assert line.endswith("tests.case_19 and 74 more"), line
    assert len(answer.tests) == 94
