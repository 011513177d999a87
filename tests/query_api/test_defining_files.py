"""The files a definition query means are those declaring the name, of the kind it asks for
(query_api/retrieval/defining_files.py). QA on spf13/pflag: `Value interface` ranked
golangflag.go and int.go above flag.go, the one file declaring `type Value interface`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.defining_files import MAX_DEFINING, declared_spelling, defining_files
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


STRUCTURES = """class MultiDict(dict):
    pass


class ImmutableMultiDict(MultiDict):
    pass
"""
TEST_PY = """from structures import MultiDict

_args: MultiDict = MultiDict()
MULTIDICT_LIMIT = 3
"""


def _spelled(tmp_path: Path, files: dict[str, str], query: str) -> str:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, body in files.items():
            views.apply(records(path, body), {})
        return views.read(lambda conn: declared_spelling(conn, "r", query))


def test_a_name_written_in_another_case_is_read_as_declared(tmp_path: Path) -> None:
    files = {"structures.py": STRUCTURES, "test.py": TEST_PY}
    # QA on pallets/werkzeug: `where is multidict defined` gave no file a `symbol:` reason
    assert _spelled(tmp_path, files, "where is multidict defined") == "where is MultiDict defined"
    assert (
        _spelled(tmp_path, files, "where is the multidict class defined?")
        == "where is the MultiDict class defined?"
    )
    # the constant MULTIDICT_LIMIT is no spelling of it; a name declared as written stays
    assert _spelled(tmp_path, files, "where is MultiDict defined") == "where is MultiDict defined"
    # no name alike, or no definition query: the query as given
    assert _spelled(tmp_path, files, "where is frozendict defined") == "where is frozendict defined"
    assert _spelled(tmp_path, files, "multidict keeps order") == "multidict keeps order"


def test_of_spellings_alike_a_kind_asked_then_no_field_wins(tmp_path: Path) -> None:
    files = {
        "a.py": "HEADERS = 1\n",
        "b.py": "HEADERS = 2\n",
        "c.py": "class Headers:\n    pass\n",
    }
    # two files declare the constant, one the class: `headers class` asks the class
    assert _spelled(tmp_path, files, "where is the headers class defined") == (
        "where is the Headers class defined"
    )
    assert _spelled(tmp_path, files, "where is headers defined") == "where is Headers defined"


def test_a_qualified_name_means_the_declarations_its_qualifier_names(tmp_path: Path) -> None:
    """QA on fastapi/typer: `where is _click.Context defined` ranked typer/models.py, whose
    `class Context(_click.Context)` subclasses it under the same name, above
    typer/_click/core.py, where the package `_click` declares it."""
    files = {
        "pkg/_click/__init__.py": "from .core import Context as Context\n",
        "pkg/_click/core.py": "class Context:\n    def invoke(self):\n        return 1\n",
        "pkg/models.py": (
            "from . import _click\n\n\nclass Context(_click.Context):\n    extra = 1\n"
        ),
    }
    both = {"pkg/_click/core.py", "pkg/models.py"}
    assert _defining(tmp_path, files, "where is Context defined") == both
    assert _defining(tmp_path, files, "where is _click.Context defined") == {"pkg/_click/core.py"}
    assert _defining(tmp_path, files, "where is models.Context defined") == {"pkg/models.py"}
    # a qualifier naming no declaration's module or type (an import alias) keeps them all
    assert _defining(tmp_path, files, "where is ck.Context defined") == both
