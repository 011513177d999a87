"""A file that declares nothing (a pom.xml, a YAML workflow) and that no passage of the vectors
points into sends the lines around the search's hit, not those sharing most of the task's
words. QA on apache/commons-csv: `which version of commons-io does commons-csv use` at 2,000
tokens sent pom.xml's lines 12-87 (each naming commons-csv) and left out line 112,
`<commons.io.version>`, where the search pointed."""

from __future__ import annotations

from query_api.context.spans import HEAD_LINES, select_spans, task_stems

TASK = "which version of commons-io does commons-csv use"


def _pom() -> list[str]:
    lines = ["    <!-- filler -->"] * 160
    for n in range(12, 88):
        lines[n - 1] = f"    <use>commons-csv version {n}</use>"
    lines[111] = "    <commons.io.version>2.22.0</commons.io.version>"
    return lines


def test_the_hit_line_is_sent_where_no_declaration_holds_it() -> None:
    lines = _pom()
    spans = select_spans(
        [], len(lines), task_stems(TASK), max_lines=40, lines=lines, hit=(112, 112)
    )
    assert any(a <= 112 <= z for a, z, _ in spans), spans
    assert sum(z - a + 1 for a, z, _ in spans) <= 40


def test_without_a_hit_the_lines_sharing_most_words_are_sent() -> None:
    lines = _pom()
    spans = select_spans([], len(lines), task_stems(TASK), max_lines=40, lines=lines)
    assert spans[0][0] <= 12 + HEAD_LINES and not any(a <= 112 <= z for a, z, _ in spans), spans


def test_a_hit_past_the_stored_lines_falls_back_to_the_words() -> None:
    lines = _pom()
    spans = select_spans([], 100, task_stems(TASK), max_lines=40, lines=lines, hit=(140, 140))
    assert all(z <= 100 for _, z, _ in spans), spans
