"""A definition query for a name the repository declares only as a member of a TypeScript type
(`setValue: SetValue;` in `type UseFormReturn = {...}`) means the function a factory declares
in its body and returns (`const setValue: SetValue = (name, value) => ...` inside
`createFormControl`), which the symbols do not keep: QA on react-hook-form/react-hook-form,
`where is setValue defined` ranked src/types/form.ts first and createFormControl.ts third, and
`where is the subscribe function implemented` pointed createSubject.ts at its type's member
(query_api/retrieval/member_bodies.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.member_bodies import function_body_line
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

TYPES = (
    "export type SetValue = (name: string, value: unknown) => void;\n"
    "\n"
    "/** What useForm returns: call setValue to set a value. */\n"
    "export type UseFormReturn = {\n"
    "  /** Sets a field value: setValue('name', 'value') */\n"
    "  setValue: SetValue;\n"
    "  reset: () => void;\n"
    "};\n"
)
CONTROL = (
    "import type { SetValue, UseFormReturn } from '../types/form';\n"
    "\n"
    "export function createFormControl(): UseFormReturn {\n"
    "  let values: Record<string, unknown> = {};\n"
    "\n"
    "  const setValue: SetValue = (name, value) => {\n"
    "    values = { ...values, [name]: value };\n"
    "  };\n"
    "\n"
    "  const reset = () => {\n"
    "    values = {};\n"
    "  };\n"
    "\n"
    "  return { setValue, reset };\n"
    "}\n"
)
SUBJECT = (
    "export type Subject = {\n"
    "  subscribe: (next: () => void) => () => void;\n"
    "};\n"
    "\n"
    "export default (): Subject => {\n"
    "  let observers: Array<() => void> = [];\n"
    "\n"
    "  const subscribe = (next: () => void) => {\n"
    "    observers.push(next);\n"
    "    return () => {\n"
    "      observers = observers.filter((o) => o !== next);\n"
    "    };\n"
    "  };\n"
    "\n"
    "  return { subscribe };\n"
    "};\n"
)
FILES = {
    "src/types/form.ts": TYPES,
    "src/logic/createFormControl.ts": CONTROL,
    "src/utils/createSubject.ts": SUBJECT,
    "src/useForm.ts": (
        "import { createFormControl } from './logic/createFormControl';\n\n"
        "export const useForm = () => createFormControl();\n"
    ),
}


async def _answers(tmp_path: Path, queries: list[str]) -> list[t.SearchResult]:
    async with indexed_app(tmp_path, FILES) as app:
        return [await app.service.search(t.SearchArgs(repoId="repo", query=q)) for q in queries]


async def test_the_factory_implementing_a_types_member_comes_first(tmp_path: Path) -> None:
    queries = [
        "where is setValue defined",
        "where is the subscribe function implemented",
        "where is UseFormReturn.setValue defined",  # the type's member, as written
    ]
    defined, implemented, member = await _answers(tmp_path, queries)
    paths = [hit.entry.path for hit in defined.hits]
    assert paths[:2] == ["src/logic/createFormControl.ts", "src/types/form.ts"], paths
    assert defined.hits[0].startLine == 6, defined.hits[0].snippet
    subject = next(h for h in implemented.hits if h.entry.path == "src/utils/createSubject.ts")
    assert (subject.startLine, subject.endLine) == (8, 13), subject.snippet
    assert member.hits[0].entry.path == "src/types/form.ts"


def test_a_function_declared_in_words_counts_a_variable_does_not() -> None:
    assert function_body_line(CONTROL, "setValue") == 6
    assert function_body_line(SUBJECT, "subscribe") == 8
    assert function_body_line(CONTROL, "values") is None  # a variable
    wrapped = "const handleSubmit: HandleSubmit<T> =\n  (onValid) => async (e) => {}\n"
    assert function_body_line(wrapped, "handleSubmit") == 1
    assert function_body_line("// const setValue = () => 1\n", "setValue") is None
