"""`the X type` asks for a type whatever the language calls its declaration: a Go named type
that is no struct (`type Level int8`, `type Formatter func(interface{}) string`), a TypeScript
or Rust type alias, a C typedef are all declarations of kind Other. QA on rs/zerolog: `where is
the Level type defined` ranked log.go, declaring `type Level int8`, seventh, below slog.go
and the files using Level, and log/log.go's `func Level(...)`; `Level type` had it first."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.defining_files import defining_files
from query_api.retrieval.definition_sites import asked_kinds
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

LOG = "package zerolog\n\n// Level defines log levels.\ntype Level int8\n"
GLOBAL = "package log\n\nfunc Level(level zerolog.Level) zerolog.Logger {\n\treturn x\n}\n"
WRITER = "package zerolog\n\ntype FilteredLevelWriter struct {\n\tLevel Level\n}\n"


def test_a_type_alias_is_a_type() -> None:
    assert "Other" in asked_kinds("where is the Level type defined")
    assert "Other" not in asked_kinds("where is the Level function defined")


def test_the_file_declaring_a_named_type_is_the_definition(tmp_path: Path) -> None:
    files = {"log.go": LOG, "log/log.go": GLOBAL, "writer.go": WRITER}
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, body in files.items():
            views.apply(records(path, body), {})
        found = views.read(
            lambda conn: defining_files(conn, "r", "where is the Level type defined")
        )
    assert found == {"log.go"}, found
