"""A line of an import statement written over several (`import {` ... `} from "./utils";`,
Python's `from a import (` ... `)`) is an import line like the statement's first
(line_preference.import_lines): no use of the name it imports, and where a file importing a
name it does not declare points. QA on unjs/unstorage: `what calls normalizeKey` pointed
src/storage.ts, capacitor-preferences.ts and vercel-runtime-cache.ts at `normalizeKey,`
inside their imports, not at their calls (storage.ts line 78: `key = normalizeKey(key);`)."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.definition_sites import at_definitions
from query_api.retrieval.line_preference import import_lines
from query_api.retrieval.use_sites import at_use_sites
from tests.query_api.located import located_hits

STORAGE = "\n".join(
    [
        "import {",  # 1
        "  type DriverFactory,",  # 2
        "  normalizeKey,",  # 3
        "  joinKeys,",  # 4
        '} from "./utils/index.ts";',  # 5
        "",
        "export function createStorage(base: string) {",  # 7
        "  const key = normalizeKey(base);",  # 8
        "  return joinKeys(key, base);",  # 9
        "}",  # 10
        "",
    ]
)


def test_the_lines_of_an_import_written_over_several_are_import_lines() -> None:
    assert import_lines(STORAGE.split("\n")) == frozenset({1, 2, 3, 4, 5})
    python = ["from pkg.utils import (", "    a,", "    b,", ")", "", "x = a(b)"]
    assert import_lines(python) == frozenset({1, 2, 3, 4})
    assert import_lines(['import { a } from "./a";', "a();"]) == frozenset({1})


def test_a_caller_importing_over_several_lines_points_at_its_call(tmp_path: Path) -> None:
    [hit] = located_hits(
        tmp_path, {"src/storage.ts": STORAGE}, "what calls normalizeKey", at_use_sites
    )
    assert (hit.startLine, hit.endLine) == (7, 10), hit
    assert hit.snippet == "8: const key = normalizeKey(base);"


def test_a_query_for_the_importers_points_at_the_line_importing_it(tmp_path: Path) -> None:
    [hit] = located_hits(
        tmp_path, {"src/storage.ts": STORAGE}, "where is normalizeKey imported?", at_use_sites
    )
    assert hit.snippet is not None and hit.snippet.startswith("3: normalizeKey,"), hit


def test_a_definition_query_points_an_importer_at_its_import(tmp_path: Path) -> None:
    """No file of the answer declares the name: each importing it points at its import,
    from the line naming it to the statement's specifier (where it comes from)."""
    [hit] = located_hits(
        tmp_path, {"src/storage.ts": STORAGE}, "where is normalizeKey defined", at_definitions
    )
    assert (hit.startLine, hit.endLine) == (3, 5), hit
    assert hit.snippet == '3: normalizeKey,\n5: } from "./utils/index.ts";', hit


def test_only_a_statement_left_open_is_followed() -> None:
    dynamic = ['import("./plugin.ts").then((mod) => {', "  mod.run();", "});", "run();"]
    assert import_lines(dynamic) == frozenset({1})
    docstring = ['"""', "import the data (from the file", "and more)", '"""']
    assert import_lines(docstring) == frozenset({2})
    go = ["import (", '\t"fmt"', "", '\t"github.com/x/y"', ")", "func main() {}"]
    assert import_lines(go) == frozenset({1, 2, 3, 4, 5})
