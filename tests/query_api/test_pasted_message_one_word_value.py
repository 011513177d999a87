"""A message written once per value (`You need to install "typescript" in your project` and
its twin for "svelte") is asked for with its one-word quoted value first: the message's
words alone match both files, and the fusion's order between them put the other value's
first (query_api/retrieval/pasted_message). QA on egoist/tsup ranked src/esbuild/svelte.ts
above src/rollup.ts, the one writing the message pasted."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.pasted_message import message_queries
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

MESSAGE = 'Error: You need to install "typescript" in your project'


def test_the_quoted_value_is_asked_for_first_then_the_words_alone() -> None:
    queries = message_queries(MESSAGE)
    assert queries[:2] == [
        'body_terms : NEAR("you need to install" "typescript" "in your project", 3)',
        'body_terms : NEAR("you need to install" "in your project", 3)',
    ], queries


FILES = {
    "package.json": '{"name": "bundler"}\n',
    "src/esbuild/svelte.ts": (
        "// compile svelte files in your project; typescript in svelte needs the compiler\n"
        "// install typescript: you need typescript to install the project's typescript\n"
        "export const sveltePlugin = (typescript: boolean) => {\n"
        "  const svelte = require('svelte/compiler')\n"
        "  if (!svelte) {\n"
        '    return { errors: [{ text: `You need to install "svelte" in your project` }] }\n'
        "  }\n  return { typescript, svelte, project: true }\n}\n"
    ),
    "src/rollup.ts": (
        "import { logger } from './log'\n\n"
        + "".join(f"export const option{i} = {{ watch: {i}, format: 'esm' }}\n" for i in range(40))
        + "\n"
        "export function startRollup() {\n"
        "  if (!hasModule()) {\n"
        '    logger.error(`You need to install "typescript" in your project`)\n'
        "  }\n}\n\nfunction hasModule() {\n  return false\n}\n"
    ),
    "src/log.ts": "export const logger = { error(message: string) { console.error(message) } }\n",
}


async def test_the_file_writing_the_value_pasted_leads(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "bundler") as app:
        found = await app.service.search(t.SearchArgs(repoId="bundler", query=MESSAGE))
        assert found.hits[0].entry.path == "src/rollup.ts", [h.entry.path for h in found.hits]


def test_an_unquoted_word_between_values_is_no_value() -> None:
    queries = message_queries("[fd error]: The '--base-directory' path 'foo' is not a directory.")
    assert queries[0] == 'body_terms : NEAR("base directory" "foo" "is not a directory", 3)'
