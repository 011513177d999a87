"""A request to update a dependency (`Update tikv-jemallocator to 0.6`, `chore(deps): bump
serde from 1.0.1 to 1.0.2`) ranks first the manifests declaring it (Cargo.toml, package.json,
go.mod, pyproject.toml, ...), where the version is written. QA on sharkdp/fd: `Update
tikv-jemallocator to 0.6` and `Depend on jemallocator as tikv-jemallocator` left Cargo.toml
out of the first ten (a config file is pushed down; main.rs, which uses the allocator, led)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.dependency_updates import declares, is_manifest, updated_package
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "Cargo.toml": (
        '[package]\nname = "fd-find"\nversion = "10.3.0"\n\n[dependencies]\n'
        'regex = "1.11"\nserde = "1.0.1"\n\n'
        "[target.'cfg(all(unix, not(target_os = \"illumos\")))'.dependencies]\n"
        'tikv-jemallocator = { version = "0.5.0", optional = true }\n'
    ),
    "src/main.rs": (
        "// the allocator: tikv-jemallocator, updated with the jemallocator crate's versions\n"
        '#[cfg(feature = "use-jemalloc")]\n'
        "#[global_allocator]\n"
        "static ALLOC: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;\n\n"
        "/// update the allocator to the tikv jemallocator\n"
        "fn main() {\n    let _ = &ALLOC;\n}\n"
    ),
    "src/walk.rs": "/// update the walker to 0.6\npub fn walk() {}\n",
}


async def test_a_dependency_update_ranks_its_manifest_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query in (
            "Update tikv-jemallocator to 0.6",
            "chore(deps): bump serde from 1.0.1 to 1.0.2",
            "build(deps): Bump `regex` to v1.12",
        ):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            assert found["hits"][0]["entry"]["path"] == "Cargo.toml", (query, found["hits"])


def test_what_reads_as_a_dependency_update() -> None:
    assert updated_package("Update tikv-jemallocator to 0.6") == "tikv-jemallocator"
    assert updated_package("chore(deps): bump serde from 1.0.1 to 1.0.2") == "serde"
    assert updated_package("Bump the @types/node package to 20.1.0") == "@types/node"
    assert updated_package("update the walker to use rayon") is None
    assert updated_package("Update README") is None
    assert is_manifest("Cargo.toml") and is_manifest("web/package.json")
    assert is_manifest("requirements-dev.txt") and not is_manifest("Cargo.lock")
    assert declares("[dependencies.clap]\nversion = 4", "clap")  # a TOML table (fd's clap)
    assert not declares('tikv-jemallocator = "0.5"', "jemallocator")
