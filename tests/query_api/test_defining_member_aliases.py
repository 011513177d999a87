"""A definition query is not answered by a type's member naming a type for it (Rust's
associated types: `type Deserializer = Self;` in an impl, `type Error;` in a trait) while
another declaration of the name is. QA on serde-rs/json: `where is Deserializer defined` lifted
three impls' `type Deserializer = ...` beside src/de.rs's `pub struct Deserializer` and put
src/value/de.rs first; `where is the Error type defined` left src/io/core.rs's `pub struct
Error` out of the first ten, below six impls' `type Error = Error;`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.defining_files import defining_files
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

FILES = {
    "src/de.rs": "pub struct Deserializer<R> {\n    read: R,\n}\n",
    "src/value.rs": (
        "pub enum Value {\n    Null,\n}\n\n"
        "impl<'de> IntoDeserializer<'de, Error> for Value {\n"
        "    type Deserializer = Self;\n"
        "    type Error = crate::error::Error;\n"
        "}\n"
    ),
    "src/map.rs": (
        "pub struct Map;\n\n"
        "impl<'de> IntoDeserializer<'de, Error> for Map {\n    type Deserializer = Self;\n}\n"
    ),
    "src/error.rs": "pub struct Error {\n    code: u8,\n}\n",
    "src/io/core.rs": "pub struct Error {\n    kind: u8,\n}\n",
    "src/read.rs": "pub trait Read {\n    type Error;\n}\n",
    # only members declare it: they are what there is
    "src/visit.rs": "impl Visitor for ValueVisitor {\n    type Output = Value;\n}\n",
    # a Go named type is its package's (`b.Level`), no member
    "log/level.go": "package log\n\ntype Level int8\n",
    "other/level.go": "package other\n\ntype Level struct{}\n",
}


def _defining(views: ViewStore, query: str) -> set[str]:
    return views.read(lambda conn: defining_files(conn, "r", query))


def test_a_types_member_alias_defines_no_type_while_a_declaration_does(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, body in FILES.items():
            views.apply(records(path, body), {})
        assert _defining(views, "where is Deserializer defined") == {"src/de.rs"}
        assert _defining(views, "where is the Error type defined") == {
            "src/error.rs",
            "src/io/core.rs",
        }
        assert _defining(views, "where is Output defined") == {"src/visit.rs"}
        assert _defining(views, "where is the Level type defined") == {
            "log/level.go",
            "other/level.go",
        }
