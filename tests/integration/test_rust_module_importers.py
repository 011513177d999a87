"""`who imports filesystem` for a Rust module declared by `mod filesystem;` in the crate root
answers the files using the module, as `who imports nativetypes` does for a Python one.
QA on sharkdp/fd: the `mod filesystem;` line of main.rs was taken for the declaration asked
about, it has no dependents, so no user was placed: main.rs and filesystem.rs led and the
files using the module (walk.rs, cli.rs, filetypes.rs, ...) carried no `uses:` reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/main.rs": "mod filesystem;\nmod notes;\nmod walk;\n\nfn main() {\n    walk::walk();\n}\n",
    "src/filesystem.rs": (
        "use std::path::Path;\n\n"
        "pub fn is_existing_directory(path: &Path) -> bool {\n    path.is_dir()\n}\n"
    ),
    "src/walk.rs": (
        "use std::path::Path;\n\nuse crate::filesystem;\n\n"
        'pub fn walk() {\n    filesystem::is_existing_directory(Path::new("."));\n}\n'
    ),
    # the words, no import: who imports the filesystem is a question it mentions
    "src/notes.rs": (
        "/// who imports the filesystem layer? the filesystem imports nothing; a filesystem\n"
        "/// import is what the walker does\npub fn note() {}\n"
    ),
}


async def test_who_imports_a_rust_module_answers_the_files_using_it(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "who imports filesystem"}
        )
        marked = [h["entry"]["path"] for h in found["hits"] if "uses:filesystem" in h["reasons"]]
        assert marked and marked[0] == "src/walk.rs", found["hits"]
        assert found["hits"][0]["entry"]["path"] == "src/walk.rs", found["hits"]
        assert "src/notes.rs" not in marked
