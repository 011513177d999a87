"""A test file never outranks the file it tests for a query that does not ask for tests
(issue 20 item 4), even when only the test holds the query's words: the real index, the
keyword ladder, the MCP client."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    # the French locale holds French messages, not the words "french" or "translation"
    "src/locales/fr.ts": 'export const messages = { invalid: "Entrée invalide" };\n',
    "src/locales/de.ts": 'export const messages = { invalid: "Ungültige Eingabe" };\n',
    "src/core/errors.ts": "export function format(issue: string): string { return issue; }\n",
    "tests/locales/fr.test.ts": (
        'import { messages } from "../../src/locales/fr";\n'
        'describe("french translation", () => {\n'
        '  it("translates the invalid message to french", () => {\n'
        '    expect(messages.invalid).toBe("Entrée invalide"); // french translation\n'
        "  });\n});\n"
    ),
}


async def test_the_subject_ranks_above_its_test_unless_tests_are_asked(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "improve french translation"}
        )
        paths = [h["entry"]["path"] for h in found["hits"]]
        assert paths[:2] == ["src/locales/fr.ts", "tests/locales/fr.test.ts"], found["hits"]
        assert "tested-by:tests/locales/fr.test.ts" in found["hits"][0]["reasons"]
        asked = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "fix the french translation tests"}
        )
        assert asked["hits"][0]["entry"]["path"] == "tests/locales/fr.test.ts", asked["hits"]
