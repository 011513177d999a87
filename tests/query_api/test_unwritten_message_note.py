"""A pasted error message no file of the repository writes (React's `Warning: A component is
changing an uncontrolled input to be controlled.`) says so: QA on
react-hook-form/react-hook-form answered it with ten files' doc comments about controlled
components and no note (query_api/retrieval/unwritten_message.py). A message a file writes,
values formatted in, gets no such note."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.unwritten_message import FRAMES, NOTE, WORDS
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "src/controller.tsx": (
        "/**\n * Component based on `useController` to work with a controlled component.\n */\n"
        "export const Controller = (props: { render: () => unknown }) => props.render();\n"
    ),
    "src/input.tsx": (
        "// an uncontrolled input: the DOM holds its value\n"
        "export const Input = () => ({ controlled: false });\n"
    ),
    "scripts/check.js": (
        "export function check(result) {\n"
        "  if (!result.succeeded) {\n"
        "    throw new Error(`Extractor completed with ${result.errorCount} errors and`);\n"
        "  }\n"
        "}\n"
    ),
}


async def test_a_message_no_file_writes_says_so(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        react = await app.service.search(
            t.SearchArgs(
                repoId="repo",
                query="Warning: A component is changing an uncontrolled input to be controlled.",
            )
        )
        written = await app.service.search(
            t.SearchArgs(repoId="repo", query="Error: Extractor completed with 3 errors and")
        )
        trace = "TypeError: Cannot read properties of null (reading 'render')\n"
        traced = await app.service.search(
            t.SearchArgs(repoId="repo", query=trace + "    at Controller (src/controller.tsx:4:60)")
        )
    assert react.hits, react
    assert NOTE + WORDS in (react.note or ""), react.note
    assert traced.hits[0].entry.path == "src/controller.tsx"
    assert NOTE + FRAMES in (traced.note or ""), traced.note
    assert written.hits[0].entry.path == "scripts/check.js"
    assert NOTE not in (written.note or ""), written.note
