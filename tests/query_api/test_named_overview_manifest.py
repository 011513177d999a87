"""`what does react-hook-form do`: a question asking what the project is by the package name
its root manifest declares is an overview question, answered by its root README first, when
the README names it in no title (it opens with a logo in a `<div>`). QA on
react-hook-form/react-hook-form led with src/useFormContext.tsx (`HookFormContext`) and left
README.md out of the first ten (streams/stores/views/entry_files.py `named_overview`,
manifest_names.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

README = (
    '<div align="center">\n'
    '  <a href="https://example.invalid" title="Forms - simple form validation">\n'
    '    <img src="logo.png" alt="Logo" />\n'
    "  </a>\n"
    "</div>\n\n"
    "Performant, flexible and extensible forms with easy-to-use validation.\n"
)
CONTEXT = (
    "import React from 'react';\n\n"
    "// the form hook's context: useFormContext reads what FormProvider holds\n"
    "export const HookFormContext = React.createContext(null);\n"
    "export const useFormContext = () => React.useContext(HookFormContext);\n"
)
FILES = {
    "README.md": README,
    "package.json": '{\n  "name": "react-hook-form",\n  "version": "7.86.0"\n}\n',
    "src/useFormContext.tsx": CONTEXT,
    "src/useForm.ts": "// the react hook for a form\nexport const useForm = () => ({});\n",
}


@pytest.mark.parametrize("query", ["what does react-hook-form do", "what is react-hook-form?"])
async def test_the_manifests_package_name_names_the_project(tmp_path: Path, query: str) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        found = await app.service.search(t.SearchArgs(repoId="repo", query=query))
    assert [hit.entry.path for hit in found.hits][:1] == ["README.md"], found.hits[:3]


async def test_another_name_is_no_overview(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        found = await app.service.search(t.SearchArgs(repoId="repo", query="what is useForm"))
    assert [hit.entry.path for hit in found.hits][:1] != ["README.md"]
