"""outline and related of a TS/JS file in a build folder the index does not hold: the note
names the source file it is built from, as related's `imports` does. QA on kysely-org/kysely:
its tests import `../../dist/readonly/index.js`; related of test/typings/index.d.ts listed
src/readonly/index, while related of dist/readonly/index.js answered `exists: false` with no
note."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, stdio_session, wait_indexed
from tests.integration.test_directory_paths import absent_note, assert_unnoted

pytestmark = pytest.mark.anyio


async def test_a_built_file_names_the_source_it_is_built_from(tmp_path: Path) -> None:
    repo = tmp_path / "workspace" / "kit"
    (repo / "src" / "readonly").mkdir(parents=True)
    (repo / "test").mkdir()
    (repo / "src" / "readonly" / "index.ts").write_text("export const ro = 1;\n")
    (repo / "test" / "index.d.ts").write_text("export * from '../dist/readonly/index.js'\n")
    async with stdio_session(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "kit")
        related = await call(
            session, "repocontext_related", {"repoId": "kit", "path": "test/index.d.ts"}
        )
        assert related["imports"] == ["src/readonly/index"], related
        for tool, path in (
            ("repocontext_outline", "dist/readonly/index.js"),
            ("repocontext_related", "dist/readonly/index.d.ts"),
        ):
            note, text = await absent_note(session, "kit", tool, path)
            assert note.startswith(f"{path} is a build output"), note
            assert "src/readonly/index.ts" in note and "src/readonly/index.ts" in text, text
        await assert_unnoted(session, "kit", "dist/nothing.js")
