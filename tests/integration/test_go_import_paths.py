"""A Go import path given to outline or related names the package's folder and files.

QA on go-kratos/kratos: related lists a Go file's imports as written
(`github.com/go-kratos/kratos/v3/transport/http`); an agent following one into outline or
related was told "github.com/go-kratos/kratos/v3/transport/http is not indexed in src", though
the package is the repository's own transport/http (module `github.com/go-kratos/kratos/v3`
in the root go.mod), and the same for a sub-module's package under contrib/."""

from __future__ import annotations

from pathlib import Path

from tests.integration.mcp_helpers import call, stdio_session, wait_indexed
from tests.integration.test_directory_paths import absent_note, pytestmark  # noqa: F401

CLIENT = "package http\n\n// NewClient makes a client.\nfunc NewClient() {}\n"
APP = (
    'package app\n\nimport "example.com/kit/v3/transport/http"\n\nfunc Run() { http.NewClient() }\n'
)


async def test_a_go_import_path_names_the_package_folder(tmp_path: Path) -> None:
    repo = tmp_path / "workspace" / "kit"
    (repo / "transport" / "http").mkdir(parents=True)
    (repo / "contrib" / "sergo").mkdir(parents=True)
    (repo / "go.mod").write_text("module example.com/kit/v3\n\ngo 1.22\n")
    (repo / "transport" / "http" / "client.go").write_text(CLIENT)
    (repo / "transport" / "http" / "a_test.go").write_text("package http\n")
    (repo / "transport" / "http" / "binding").mkdir()
    (repo / "transport" / "http" / "binding" / "bind.go").write_text("package binding\n")
    (repo / "contrib" / "sergo" / "go.mod").write_text("module example.com/kit/contrib/sergo\n")
    (repo / "contrib" / "sergo" / "app.go").write_text(APP)
    async with stdio_session(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "kit")
        related = await call(
            session, "repocontext_related", {"repoId": "kit", "path": "contrib/sergo/app.go"}
        )
        imported = "example.com/kit/v3/transport/http"
        assert related["imports"] == [imported], related
        for tool in ("repocontext_outline", "repocontext_related"):
            note, text = await absent_note(session, "kit", tool, imported)
            assert "Go import path" in note and "transport/http/client.go" in note, note
            # its own source first, not a sub-package's file
            assert "binding/bind.go" not in note and note.index("client.go") < note.index(
                "a_test.go"
            ), note
            assert "not indexed" not in text, text
        note, _ = await absent_note(
            session, "kit", "repocontext_outline", "example.com/kit/contrib/sergo"
        )
        assert "contrib/sergo" in note and "contrib/sergo/app.go" in note, note
        # another module's package is no folder here: nothing to name
        note, _ = await absent_note(session, "kit", "repocontext_outline", "google.golang.org/grpc")
        assert note == "", note
