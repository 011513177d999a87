"""A file's bare name inside a pasted error message (`Unable to find tsconfig.json in
/app`) is a value formatted in, as a path is: read last without it, the file writing the
message is found and leads, above the file the name names (query_api/retrieval/
pasted_message). QA on egoist/tsup ranked the root tsconfig.json first for it and tsc.ts,
writing `Unable to find ${tsconfig || 'tsconfig.json'} in ${cwd}`, second."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.pasted_message import message_queries
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

MESSAGE = "Error: Unable to find tsconfig.json in /home/user/project"


def test_a_bare_file_name_is_read_as_a_value_after_the_message_as_written() -> None:
    queries = message_queries(MESSAGE)
    assert queries[0] == 'body_terms : "unable to find tsconfig json in"', queries
    assert 'body_terms : "unable to find"' in queries, queries


def test_a_message_naming_no_file_reads_as_before() -> None:
    queries = message_queries("AttributeError: module os.path has no attribute foo")
    assert not any('"module os"' in q for q in queries), queries


FILES = {
    "tsconfig.json": '{\n  "compilerOptions": {\n    "resolveJsonModule": true\n  }\n}\n',
    "package.json": '{"name": "bundler"}\n',
    "src/tsc.ts": (
        "import path from 'node:path'\n\n"
        "export function loadTsconfig(cwd: string, tsconfig?: string) {\n"
        "  const found = path.join(cwd, tsconfig || 'tsconfig.json')\n"
        "  if (!found) {\n"
        "    throw new Error(`Unable to find ${tsconfig || 'tsconfig.json'} in ${cwd}`)\n"
        "  }\n  return found\n}\n"
    ),
    "src/index.ts": (
        "import { loadTsconfig } from './tsc'\n\n"
        "export function build(cwd: string) {\n  return loadTsconfig(cwd)\n}\n"
    ),
}


async def test_the_file_writing_the_message_leads(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "bundler") as app:
        found = await app.service.search(t.SearchArgs(repoId="bundler", query=MESSAGE))
        assert found.hits[0].entry.path == "src/tsc.ts", [h.entry.path for h in found.hits]
        assert found.hits[0].startLine is not None and found.hits[0].startLine <= 6
        assert found.hits[0].endLine is not None and found.hits[0].endLine >= 6
