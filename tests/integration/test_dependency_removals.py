"""A request to remove a dependency (`chore(dependencies): drop pin-utils dependency`,
`Remove the dependency on futures-util`) ranks first the manifests declaring it, as an
update does (query_api/retrieval/dependency_updates.py). QA on hyperium/hyper: `chore(
dependencies): drop pin-utils dependency` left Cargo.toml, which the commit changed, out of
the first four; src/proto/h1/dispatch.rs led, for `Pin` and `drop`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.dependency_updates import updated_package
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "Cargo.toml": (
        '[package]\nname = "hyper"\nversion = "1.8.0"\n\n[dependencies]\n'
        'bytes = "1.2"\npin-utils = "0.1"\nfutures-util = { version = "0.3", optional = true }\n'
    ),
    "src/common/task.rs": (
        "use std::pin::Pin;\n\n/// drop the pinned future, a dependency of the poll loop\n"
        "pub fn drop_pinned(fut: Pin<&mut u8>) {\n"
        "    pin_utils::pin_mut!(fut);\n    drop(fut);\n}\n"
    ),
    "src/proto/dispatch.rs": (
        "use std::pin::Pin;\n\n/// drop guard: drop the body when the dispatcher is dropped\n"
        "pub struct DropGuard(Pin<Box<u8>>);\n\nimpl Drop for DropGuard {\n"
        "    fn drop(&mut self) {}\n}\n"
    ),
}


async def test_a_dependency_removal_ranks_its_manifest_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query in (
            "chore(dependencies): drop pin-utils dependency",
            "Remove the dependency on futures-util",
            "remove the `pin-utils` crate",
        ):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            assert found["hits"][0]["entry"]["path"] == "Cargo.toml", (query, found["hits"])


def test_what_reads_as_a_dependency_removal() -> None:
    assert updated_package("chore(dependencies): drop pin-utils dependency") == "pin-utils"
    assert updated_package("Remove the dependency on futures-util") == "futures-util"
    assert updated_package("remove the `pin-utils` crate") == "pin-utils"
    assert updated_package("deps: remove unused tokio dependency") == "tokio"
    # no kind word: a request's words, not a dependency
    assert updated_package("drop the body when the dispatcher is dropped") is None
    assert updated_package("remove the connection") is None
    assert updated_package("Remove dead code") is None
    # a module or package of the code is no dependency
    assert updated_package("remove the config module") is None
    assert updated_package("Remove the util package") is None
