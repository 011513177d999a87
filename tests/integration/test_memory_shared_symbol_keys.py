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


async def test_a_name_a_committed_build_declares_too_reads_back_as_the_source(
    tmp_path: Path,
) -> None:
    """QA on axios/axios: a note linked to repo/src/symbol/buildFullPath was told it reads
    back as dist/axios.js's (first by path of the four builds and lib/core/buildFullPath.js),
    and its `stale` followed the bundle, which changes only on a release."""
    repo = tmp_path / "ws" / "repo"
    (repo / "dist").mkdir(parents=True)
    (repo / "lib").mkdir()
    body = "function buildFullPath(base, url) {\n  return base + url;\n}\n"
    (repo / "dist" / "axios.js").write_text(body)
    (repo / "lib" / "buildFullPath.js").write_text(f"export default {body}")
    async with memory_rig(tmp_path, index=True) as (_, s):

        async def declared() -> str | None:
            got = await call(s, "repocontext_recall", {"key": "repo/repo/symbol/buildFullPath"})
            return got.get("fields", {}).get("filePath") if got.get("exists") else None

        assert await wait_for(declared, what="recall") == "lib/buildFullPath.js"
        written = await call(
            s,
            "repocontext_remember",
            {
                "repoId": "repo",
                "topic": "gotchas",
                "body": "allowAbsoluteUrls must reach it",
                "addLinks": {"about": ["repo/repo/symbol/buildFullPath"]},
            },
        )
        note = written.get("note", "")
        assert "(lib/buildFullPath.js, dist/axios.js): it reads back as lib/buildFullPath.js's" in (
            note
        ), note
