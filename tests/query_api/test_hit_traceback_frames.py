"""A Python traceback's frame (`File "src/fetch.py", line 11, in create`) names a place as
`src/fetch.py:11` does, and a frame's absolute path (`/home/dev/proj/src/fetch.py`) names the
repository's file it ends with. QA on pallets/jinja: `File "src/jinja2/environment.py", line
1295, in render` pointed the hit at lines 127-142 (the words' lines), and a pasted
traceback's frames at none of theirs."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.named_lines import Place, place_of, written_places
from tests.query_api.test_hit_named_lines import _hit

TRACEBACK = """Traceback (most recent call last):
  File "/home/dev/app.py", line 3, in <module>
    print(render())
  File "/home/dev/proj/src/fetch.ts", line 11, in createFetch
    raise UndefinedError(hint)
jinja2.exceptions.UndefinedError: 'foo' is undefined"""


def test_a_traceback_frame_names_its_line(tmp_path: Path) -> None:
    for query in ('File "src/fetch.ts", line 11, in createFetch', TRACEBACK):
        hit = _hit(tmp_path, query)
        assert (hit.startLine, hit.endLine) == (11, 11), query
        assert hit.snippet is not None and hit.snippet.startswith("11: const parseFunction")


def test_the_frames_a_traceback_names_innermost_first() -> None:
    assert written_places(TRACEBACK) == [
        Place("/home/dev/proj/src/fetch.ts", 11, 11),
        Place("/home/dev/app.py", 3, 3),
    ]
    assert written_places(r'File "C:\proj\src\app.py", line 7, in main') == [
        Place("c:/proj/src/app.py", 7, 7)
    ]


def test_an_absolute_path_names_the_file_it_ends_with() -> None:
    place = Place("/home/dev/proj/src/fetch.ts", 11, 11)
    assert place_of([place], "src/fetch.ts") == place
    assert place_of([place], "fetch.ts") == place
    assert place_of([place], "etch.ts") is None  # a whole segment, not part of one
    assert place_of([place], "lib/fetch.ts") is None


def test_a_place_written_in_words_names_its_lines(tmp_path: Path) -> None:
    """QA on pallets/jinja: `line 995 of filters.py` and `filters.py line 995` pointed the hit
    at lines holding the word `line` (821-831)."""
    for query in (
        "line 11 of src/fetch.ts",
        "fetch.ts line 11",
        "what does fetch.ts, line 11 do?",
        "lines 11-12 in fetch.ts",
    ):
        hit = _hit(tmp_path, query)
        assert hit.startLine == 11, (query, hit)
    assert written_places("lines 11-12 in fetch.ts") == [Place("fetch.ts", 11, 12)]
    assert written_places("see line 4 of the docs") == []  # no file named
