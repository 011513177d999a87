"""A query none of whose words any file holds as written is searched again with each word
as the repository writes it: a name declared in another case (`devstore` -> `DevStore`), a
word it holds only with an ending (`deprecate` -> `deprecated`). QA on pmndrs/jotai: the
commit subject `deprecate devstore` answered `hits: []` and 'no file contains it', where
tests/vanilla/storedev.test.tsx declares `type DevStore` and thirteen files say `deprecated`."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "src/store.ts": (
        "export type DevStore = { restore_atoms: () => void }\n\n"
        "export function createDevStore(): DevStore {\n"
        "  console.warn('[DEPRECATED] the dev store is deprecated')\n"
        "  return { restore_atoms: () => {} }\n"
        "}\n"
    ),
    "src/family.ts": "export function family(): void {\n  console.warn('deprecated')\n}\n",
    "src/atom.ts": "export function atom(value: number): number {\n  return value\n}\n",
}


async def _search(tmp_path: Path, queries: list[str]) -> list[t.SearchResult]:
    async with indexed_app(tmp_path, FILES, "jotai") as app:
        return [
            await app.service.search(t.SearchArgs(repoId="jotai", query=query)) for query in queries
        ]


async def test_words_no_file_holds_as_written_are_searched_as_the_repository_writes_them(
    tmp_path: Path,
) -> None:
    both, ending, nothing = await _search(
        tmp_path, ["deprecate devstore", "deprecate", "frobnicate"]
    )
    assert [h.entry.path for h in both.hits][:1] == ["src/store.ts"], both
    assert {h.entry.path for h in ending.hits} == {"src/store.ts", "src/family.ts"}, (
        ending.hits,
        ending.note,
    )
    assert ending.note is not None and "searched as 'deprecated'" in ending.note, ending.note
    assert ending.hits[0].snippet is not None and "deprecated" in ending.hits[0].snippet
    assert nothing.hits == [] and nothing.note, nothing  # still no match: still said


async def test_a_declared_name_written_run_together_in_lower_case_is_searched_as_declared(
    tmp_path: Path,
) -> None:
    """QA on rs/zerolog: `consolewriter` and `timestampunixnano` matched nothing (the index
    holds `console` and `writer`) while the query's other words matched other files, so the
    file declaring ConsoleWriter was not first."""
    files = {
        "console.go": (
            "package log\n\n// ConsoleWriter parses the JSON input and writes it to Out.\n"
            "type ConsoleWriter struct {\n\tOut int\n}\n"
        ),
        "colour.go": "package log\n\n// colour the output of the level field\n"
        "func colour(level string) string {\n\treturn level + level + level\n}\n",
        "fields.go": "package log\n\n// TimestampUnixNano is the nano time format.\n"
        "const TimestampUnixNano = 3\n",
    }
    async with indexed_app(tmp_path, files, "zerolog") as app:
        found = [
            await app.service.search(t.SearchArgs(repoId="zerolog", query=query))
            for query in ("colour the level field in consolewriter", "timestampunixnano format")
        ]
    console, nano = ([h.entry.path for h in answer.hits] for answer in found)
    assert console[:1] == ["console.go"], console
    assert nano[:1] == ["fields.go"], nano
