"""`path-name-match` says the query names the file by its path; a file whose path shares only
the extension the query writes (`rs` of `tests/tests.rs:2812`) is not named so. QA on
sharkdp/fd: that query gave every Rust file of the answer the reason (src/exit_codes.rs,
src/filter/time.rs, src/fmt/input.rs), as if each were named; stop words were already left
out the same way (`to` in string_to_int.go)."""

from __future__ import annotations

from pathlib import Path

from streams.stores.views.handlers import default_registry
from streams.stores.views.search import keyword_hits
from streams.stores.views.store import ViewStore
from tests.streams.symbol_records import records

FILES = {
    "tests/tests.rs": "#[test]\nfn test_simple() {\n    assert!(true);\n}\n",
    "src/exit_codes.rs": (
        "pub enum ExitCode {\n    Success,\n}\n\n#[cfg(test)]\nmod tests {\n"
        "    #[test]\n    fn tests_exit() {}\n}\n"
    ),
    "src/walk.rs": "pub fn walk() {}\n",
}


def test_a_path_sharing_only_the_written_extension_is_no_path_match(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in FILES.items() for rec in records(path, body)], {})
        hits = {h.path: h.reasons for h in keyword_hits(store, "r", "tests/tests.rs:2812", 10)}
        assert "path-name-match" in hits["tests/tests.rs"], hits
        assert "path-name-match" not in hits.get("src/exit_codes.rs", ()), hits
        # a path sharing a word of the query besides it still matches
        walk = {h.path: h.reasons for h in keyword_hits(store, "r", "walk.rs entries", 10)}
        assert "path-name-match" in walk["src/walk.rs"], walk
