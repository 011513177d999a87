"""A request whose scope is a file's path (`tests/testenv/mod.rs: Change how fd binary
executable is located`, `fix(walk.rs): ...`) names that file, as a path among its first words
does. QA on sharkdp/fd: that commit subject ranked tests/testenv/mod.rs third, below
src/exec/mod.rs and src/cli.rs: the scope was taken off before the opening words were read
for paths, and as a scope it lifted nothing (a scope's part names a folder or a file's stem,
and `mod.rs` is neither)."""

from __future__ import annotations

from pathlib import Path

from streams.stores.views.handlers import default_registry
from streams.stores.views.named_files import opening_paths, path_named_files
from streams.stores.views.store import ViewStore
from tests.streams.symbol_records import records
from tests.streams.test_search_ranking import ranked_over

FILES = {
    "tests/testenv/mod.rs": (
        "pub struct TestEnv {\n    root: PathBuf,\n}\n\n"
        'fn find_fd_exe() -> PathBuf {\n    PathBuf::from(env!("CARGO_BIN_EXE_fd"))\n}\n'
    ),
    # the request's words, many times over
    "src/exec/mod.rs": "".join(
        f"/// how the executable {n} is located: change the binary executable path\n"
        f"pub fn locate_{n}(executable: &str) -> &str {{\n    executable\n}}\n"
        for n in range(8)
    ),
    "src/walk.rs": "pub fn walk() {}\n",
}
QUERY = "tests/testenv/mod.rs: Change how fd binary executable is located"


def test_a_scope_that_is_a_files_path_names_the_file(tmp_path: Path) -> None:
    assert opening_paths(QUERY) == ["tests/testenv/mod.rs"]
    assert opening_paths("fix(walk.rs): skip the root entry") == ["walk.rs"]
    assert opening_paths("plugin/cache: drop stale entries") == []  # a folder: no file
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in FILES.items() for rec in records(path, body)], {})
        named = store.read(lambda conn: path_named_files(conn, "r", QUERY))
        assert named == ["tests/testenv/mod.rs"]
    (tmp_path / "ranked").mkdir()
    (order,) = ranked_over(tmp_path / "ranked", FILES, QUERY)
    assert order[0] == "tests/testenv/mod.rs", order
