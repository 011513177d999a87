"""A pasted message of two words and a quoted value (`TypeError: Unknown option
'timeoutEarlyMillis'`) asks for the files writing those two words when the value, formatted
in, is in no file: QA on middyjs/middy ranked a comment naming the mistyped option first and
packages/util/index.js, writing `Unknown option '${key}'`, sixth."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.pasted_message import message_queries
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def test_two_words_before_a_quoted_value_are_asked_last() -> None:
    asked = message_queries("TypeError: Unknown option 'timeoutEarlyMillis'")
    assert asked[-1] == 'body_terms : "unknown option"', asked
    assert message_queries("Error: 'foo'") == []  # a value alone names no message
    assert message_queries("Fix Unknown option 'x' handling") == []  # a request


FILES = {
    "package.json": '{"name": "mw"}\n',
    "packages/util/index.js": (
        "export const validateOptions = (schema, options) => {\n"
        "  for (const key of Object.keys(options)) {\n"
        "    if (!Object.hasOwn(schema, key)) {\n"
        "      fail(`Unknown option '${key}'`);\n"
        "    }\n"
        "  }\n"
        "};\n"
        + "".join(f"const unknown{i} = {i}; // an unknown value\n" for i in range(40))
        + "const checkRule = (rule, value, path, msg) => {\n"
        + "  if (rule.oneOf) fail(`Option '${path}' must match one schema`);\n"
        + "  if (rule.instanceof) fail(`Option '${path}' must be an instance`);\n"
        + "  throw new TypeError(msg);\n"
        + "};\n"
    ),
    "packages/core/index.js": (
        "// options are checked: a typo (`timeoutEarlyMillis` for `timeoutEarlyInMillis`)\n"
        "// is caught as an unknown key\n"
        "export const defaults = { timeoutEarlyInMillis: 5 };\n"
    ),
}


async def test_the_file_writing_the_message_leads(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "mw") as app:
        query = "TypeError: Unknown option 'timeoutEarlyMillis'"
        found = await app.service.search(t.SearchArgs(repoId="mw", query=query))
        paths = [h.entry.path for h in found.hits]
        assert paths[0] == "packages/util/index.js", paths
        assert "Unknown option" in (found.hits[0].snippet or ""), found.hits[0]
