"""The words with which a query asks where a name is defined or what uses it (`defined`,
`declared`, `class`; `calls`, `used`) say what is asked, not what the code holds: QA on
jquense/yup, `where is createValidation defined` brought src/tuple.ts in for its `defined()`
method (pointed at `defined(`), and every hit named `symbol:*.defined`; `what calls
formatError` pointed src/schema.ts at `fn.call(...)`. The real index, the keyword ladder,
the MCP client."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/util/createValidation.ts": (
        "export default function createValidation(name: string) {\n  return name;\n}\n"
    ),
    "src/schema.ts": (
        "import createValidation from './util/createValidation';\n\n"
        "export function build() {\n  return createValidation('x');\n}\n"
    ),
    # a method called `defined`, no word of the name
    "src/tuple.ts": (
        "export default class TupleSchema {\n"
        "  // defined: value not undefined; defined() makes schema defined\n"
        "  defined(message = 'value required defined') {\n    return this;\n  }\n\n"
        "  // calls function fn; receiver: declared schema\n"
        "  call(fn: () => void) {\n    fn.call(this);\n    return this;\n  }\n}\n"
    ),
}


@pytest.mark.parametrize(
    "query",
    [
        "where is createValidation defined",
        "where is the createValidation function declared?",
        "what calls createValidation",
    ],
)
async def test_a_form_word_finds_nothing_by_itself(tmp_path: Path, query: str) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        paths = [h["entry"]["path"] for h in found["hits"]]
        assert "src/tuple.ts" not in paths, found["hits"]
        assert sorted(paths) == ["src/schema.ts", "src/util/createValidation.ts"], paths
