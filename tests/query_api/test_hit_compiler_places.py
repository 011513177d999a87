"""A compiler's place (`src/fetch.ts(11,5): error TS2322: ...`, as tsc and MSBuild write it)
points the file's hit at that line, as `src/fetch.ts:11:5` does
(query_api/retrieval/named_lines.py _compiler_places), and its numbers are no words of the
query (place_numbers.py). QA on unjs/unstorage: tsc's `src/drivers/s3.ts(152,9): error
TS2322: Type 'string | undefined' is not assignable to type 'string'.` pointed s3.ts at line
63, `"Content-Type"?: string;`, not at line 152."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.named_lines import Place, written_places
from query_api.retrieval.place_numbers import without_place_numbers
from tests.query_api.test_hit_named_lines import _hit

TSC = "src/fetch.ts(11,5): error TS2322: Type 'string' is not assignable to type 'number'."


def test_a_compiler_place_points_the_files_hit_at_its_line(tmp_path: Path) -> None:
    hit = _hit(tmp_path, TSC)
    assert (hit.startLine, hit.endLine) == (11, 11), hit
    assert hit.snippet == "11: const parseFunction = context.options.parseResponse || JSON.parse;"


def test_what_a_compiler_place_is() -> None:
    assert written_places(TSC) == [Place("src/fetch.ts", 11, 11)]
    assert written_places(r"C:\proj\Program.cs(12): error CS1002: ; expected") == [
        Place("c:/proj/program.cs", 12, 12)
    ]
    # a call in a sentence is no place: no colon follows it
    assert written_places("why does buf.slice(3) return nothing") == []


def test_a_compiler_places_numbers_are_no_words() -> None:
    assert "11" not in without_place_numbers(TSC) and "5" not in without_place_numbers(TSC)
