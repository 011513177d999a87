"""A query naming a file its repository names in capitals (`LICENSE`, `README`, `NOTICE`)
ranks that file first, whatever its other words match. QA on seanmonstar/warp: `Update LICENSE
year range to 2018-2020` (a commit that changed LICENSE alone) left LICENSE out of the first
ten, below src/filters/fs.rs for its `Range` declarations; `Bump LICENSE year` had it first."""

from __future__ import annotations

from pathlib import Path

from streams.stores.views.handlers import default_registry
from streams.stores.views.named_files import capital_named_files
from streams.stores.views.search import keyword_hits
from streams.stores.views.store import ViewStore
from tests.streams.symbol_records import records

FILES = {
    "LICENSE": "Copyright (c) 2018-2025 Sean McArthur\n\nPermission is hereby granted.\n",
    "README.md": "# warp\n\nA web server framework.\n",
    "src/fs.rs": (
        "pub struct Range {\n    start: u64,\n}\n\n"
        "pub fn range(year: u64) -> Range {\n    Range { start: year }\n}\n\n"
        "pub fn if_range(range: Range) -> Range {\n    range\n}\n"
    ),
    "src/cors.rs": "pub fn cors() {}\n",
}


def _ranked(tmp_path: Path, query: str) -> list[str]:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in FILES.items() for rec in records(path, body)], {})
        return [hit.path for hit in keyword_hits(store, "r", query, 10)]


def test_a_file_named_in_capitals_ranks_first(tmp_path: Path) -> None:
    assert _ranked(tmp_path, "Update LICENSE year range to 2018-2020")[0] == "LICENSE"


def test_a_capital_name_matches_a_file_with_its_extension(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in FILES.items() for rec in records(path, body)], {})
        found = store.read(lambda c: capital_named_files(c, "r", "fix the README range"))
    assert found == ["README.md"]


def test_an_acronym_names_no_lower_case_file(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in FILES.items() for rec in records(path, body)], {})
        found = store.read(lambda c: capital_named_files(c, "r", "allow CORS range headers"))
    assert found == []


def test_a_comment_marker_names_no_file(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        files = {**FILES, "TODO.md": "- more ranges\n"}
        store.apply([rec for path, body in files.items() for rec in records(path, body)], {})
        found = store.read(lambda c: capital_named_files(c, "r", "remove the TODO in range"))
    assert found == []


def test_a_name_many_files_share_names_none(tmp_path: Path) -> None:
    # python-poetry/poetry's test fixtures hold a METADATA file per distribution: a request
    # about `importlib.metadata` naming METADATA put them all above the code it changed
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        files = {
            **FILES,
            **{f"tests/fixtures/dist{n}.dist-info/METADATA": "Name: d\n" for n in range(3)},
        }
        store.apply([rec for path, body in files.items() for rec in records(path, body)], {})
        found = store.read(lambda c: capital_named_files(c, "r", "read METADATA on 3.15"))
    assert found == []


def test_of_a_name_many_files_share_the_root_one_is_named(tmp_path: Path) -> None:
    # QA on rs/zerolog: `README` alone ranked cmd/prettylog/README.md, cmd/lint/README.md and
    # internal/cbor/README.md above the repository's README.md, a name five files share
    # naming none of them
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        files = {**FILES, **{f"cmd/tool{n}/README.md": "# tool\n\nA tool.\n" for n in range(3)}}
        store.apply([rec for path, body in files.items() for rec in records(path, body)], {})
        found = store.read(lambda c: capital_named_files(c, "r", "where is the README section"))
    assert found == ["README.md"]
