"""A question about the version of one dependency (`what version of typescript does
react-hook-form use`, `which version of react is required`) points the package.json's hit at
that dependency's entry, its peer dependencies' first; a question about the dependencies of a
package listing none under `"dependencies"` at its peer dependencies. QA on
react-hook-form/react-hook-form pointed package.json at `"name": "react-hook-form"` (the
project's name holds `react`) and at `"require": "./dist/index.cjs.js"`
(query_api/retrieval/config_sections.py dependency_entry)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.config_sections import dependency_entry
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

MANIFEST = (
    "{\n"  # 1
    '  "name": "react-form-kit",\n'
    '  "exports": {\n'
    '    "require": "./dist/index.cjs.js"\n'
    "  },\n"  # 5
    '  "devDependencies": {\n'
    '    "react": "^19.2.7",\n'
    '    "typescript": "^6.0.3",\n'
    '    "zod": "^3.25.76"\n'
    "  },\n"  # 10
    '  "peerDependencies": {\n'
    '    "react": "^16.8.0 || ^17 || ^18 || ^19"\n'
    "  }\n"
    "}\n"
)
SOURCE = "import React from 'react';\n\nexport const useForm = () => React.useState({});\n"
FILES = {"package.json": MANIFEST, "src/useForm.ts": SOURCE, "src/index.ts": SOURCE}


async def test_the_manifest_is_pointed_at_the_dependency_asked_about(tmp_path: Path) -> None:
    queries = {
        "what version of typescript does react-form-kit use": (8, 8),
        "which version of react is required": (12, 12),  # the peer dependency
        "what dependencies does react-form-kit have": (11, 13),  # no "dependencies" list
    }
    async with indexed_app(tmp_path, FILES) as app:
        for query, lines in queries.items():
            found = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            hit = next(h for h in found.hits if h.entry.path == "package.json")
            assert (hit.startLine, hit.endLine) == lines, (query, hit.snippet)


def test_only_a_dependency_the_question_writes_whole() -> None:
    lines = MANIFEST.split("\n")
    asked = "what version of typescript does react-form-kit use"
    assert dependency_entry("package.json", lines, asked) == (8, 8)
    assert dependency_entry("package.json", lines, "what version of vue is used") is None
    assert dependency_entry("package.json", lines, "where is react configured") is None
    assert dependency_entry("src/useForm.ts", lines, asked) is None
