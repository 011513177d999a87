"""A link to a symbol key that several files declare says so (QA on go-kratos/kratos): a Go
declaration is stored as its package clause and name, so `main.main` names each command's
`func main()` (cmd/kratos, cmd/protoc-gen-go-errors, cmd/protoc-gen-go-http) and
`config.Watcher` three interfaces. A note linked to `repo/src/symbol/main.main` about
protoc-gen-go-http's main was written without a word, read back as cmd/kratos/main.go's and
tracked that file's drift; search showed it on all three files. Real app, real MCP client
over the SDK's in-memory transport."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, wait_for
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

MAIN = 'package main\n\nfunc main() {{ println("{name}") }}\n'
SHARED = "repo/repo/symbol/main.main"
ALONE = "repo/repo/symbol/main.onlyHere"


async def test_a_link_to_a_name_several_files_declare_names_them(tmp_path: Path) -> None:
    repo = tmp_path / "ws" / "repo"
    for tool in ("kratos", "gen-http"):
        (repo / "cmd" / tool).mkdir(parents=True)
        (repo / "cmd" / tool / "main.go").write_text(MAIN.format(name=tool))
    (repo / "cmd" / "gen-http" / "flags.go").write_text("package main\n\nfunc onlyHere() {}\n")
    async with memory_rig(tmp_path, index=True) as (_, s):

        async def outlined() -> list[str]:
            where = {"repoId": "repo", "path": "cmd/gen-http/main.go"}
            outline = await call(s, "repocontext_outline", where)
            return [x["fullyQualifiedName"] for x in outline.get("symbols", [])]

        assert await wait_for(outlined, what="outline") == ["main.main"]
        written = await call(
            s,
            "repocontext_remember",
            {
                "repoId": "repo",
                "topic": "gotchas",
                "id": "gen-http-main",
                "body": "flags are parsed in main",
                "addLinks": {"about": [SHARED, ALONE]},
            },
        )
        assert written["linksAdded"] == 2
        note = written.get("note", "")
        assert f"{SHARED} is declared in 2 files" in note, note
        assert "cmd/gen-http/main.go" in note and "cmd/kratos/main.go" in note, note
        assert "search shows the note on each of them" in note, note
        assert "repo/repo/file/" in note, note  # how to mean one of them
        assert ALONE not in note, note  # one file declares it: nothing to say
