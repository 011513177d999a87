"""A stack trace's frame names a file in the case it is written: `at onSubmit (App.tsx:20:5)`,
the reporter's own component, is not the repository's app/src/app.tsx. QA on
react-hook-form/react-hook-form placed app/src/app.tsx (its e2e playground's router) third,
pointed at line 20, for a TypeError pasted with such a frame (query_api/retrieval/named_lines.py
`_names`). A place written by hand (`app.tsx:20`) still names a file in any case."""

from __future__ import annotations

from query_api.retrieval.frames_first import frames_first
from query_api.retrieval.named_lines import frames, named_place, place_among
from tests.query_api.located import file_hit

TRACE = (
    "TypeError: Cannot read properties of null (reading 'name')\n"
    "    at getFieldValue (src/logic/getFieldValue.ts:12:15)\n"
    "    at onSubmit (App.tsx:20:5)\n"
)
PATHS = ["src/other.ts", "app/src/app.tsx", "src/logic/getFieldValue.ts"]


def test_a_frame_names_no_file_of_another_case() -> None:
    ranked = frames_first([file_hit(p) for p in PATHS], TRACE)
    assert [hit.entry.path for hit in ranked] == [
        "src/logic/getFieldValue.ts",
        "src/other.ts",
        "app/src/app.tsx",
    ]


def test_a_frame_in_the_files_case_and_a_place_by_hand_name_it() -> None:
    cased = frames("    at App (app/src/app.tsx:20:5)\n")
    assert place_among(cased, "app/src/app.tsx", PATHS) is not None
    typed = named_place("App.tsx:20")
    assert typed is not None and place_among([typed], "app/src/app.tsx", PATHS) is not None
