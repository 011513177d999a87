"""A search for the importers of a module or file points each file hit at its import of it,
whose specifier is a string (query_api/retrieval/import_sites.py). QA on unjs/unstorage:
`who imports tracing` pointed test/tracing.test.ts at its imports of vitest and
node:diagnostics_channel, not at `import { withTracing } from "../src/tracing.ts"`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.import_sites import import_site, module_tail
from query_api.retrieval.use_sites import at_use_sites
from tests.query_api.located import located_hits

TEST = "\n".join(
    [
        'import { describe, it, expect } from "vitest";',  # 1
        'import { tracingChannel } from "node:diagnostics_channel";',  # 2
        'import { createStorage } from "../src/storage.ts";',  # 3
        "import {",  # 4
        "  withTracing,",  # 5
        "  type TracingEvent,",  # 6
        '} from "../src/tracing.ts";',  # 7
        "",
        'describe("tracing", () => {',  # 9
        '  it("traces", () => expect(withTracing(createStorage())).toBeTruthy());',  # 10
        "});",  # 11
        "",
    ]
)


def test_what_a_modules_last_part_is() -> None:
    assert module_tail("src/drivers/utils/index.ts") == "utils"
    assert module_tail("../src/tracing.ts") == "tracing"
    assert module_tail("tracing") == "tracing"
    assert module_tail("jinja2.sandbox") == "sandbox"
    assert import_site(TEST.split("\n"), "tracing") == (4, 7)
    assert import_site(TEST.split("\n"), "missing") is None


def test_an_importer_points_at_its_import_of_the_module(tmp_path: Path) -> None:
    for query in ("who imports tracing", "what imports src/tracing.ts"):
        [hit] = located_hits(tmp_path, {"test/tracing.test.ts": TEST}, query, at_use_sites)
        assert (hit.startLine, hit.endLine) == (4, 7), (query, hit)
        assert hit.snippet == '4: import {\n7: } from "../src/tracing.ts";', (query, hit)
