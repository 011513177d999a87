"""The files a definition query means are those declaring the name, of the kind it asks for
(query_api/retrieval/defining_files.py). QA on spf13/pflag: `Value interface` ranked
golangflag.go and int.go above flag.go, the one file declaring `type Value interface`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.defining_files import MAX_DEFINING, defining_files
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

FLAG = """package pflag

type Value interface {
\tString() string
\tSet(string) error
}

type Flag struct {
\tName  string
\tValue Value
}
"""
WRAPPER = """package pflag

type flagValueWrapper struct {
\tinner Value
}

func (v *flagValueWrapper) Set(s string) error { return v.inner.Set(s) }
"""
INT = """package pflag

type intValue int

func (i *intValue) Set(s string) error { return nil }
"""


def _defining(tmp_path: Path, files: dict[str, str], query: str) -> set[str]:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, body in files.items():
            views.apply(records(path, body), {})
        return views.read(lambda conn: defining_files(conn, "r", query))


def test_a_definition_query_means_the_files_declaring_the_name(tmp_path: Path) -> None:
    files = {"flag.go": FLAG, "golangflag.go": WRAPPER, "int.go": INT}
    for query in (
        "where is the Value interface defined",
        "Value interface",
        "where is Value defined",
    ):
        assert _defining(tmp_path, files, query) == {"flag.go"}, query
    # a kind the name is not declared as: none; a query that asks no definition: none
    assert _defining(tmp_path, files, "where is the Value function defined") == set()
    assert _defining(tmp_path, files, "set a flag value") == set()


def test_a_name_declared_everywhere_names_no_file(tmp_path: Path) -> None:
    files = {
        f"v{i}.go": "package pflag\n\ntype Value interface{}\n" for i in range(MAX_DEFINING + 1)
    }
    assert _defining(tmp_path, files, "Value interface") == set()
