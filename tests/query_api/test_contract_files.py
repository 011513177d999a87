"""A definition query for a name many files declare means first the declaration the others
implement: an abstract method, or an interface's or trait's member
(query_api/retrieval/contract_files.py). On jackson-core `where is getNumberType defined`
ranked ParserBase (overriding it) first and JsonParser, declaring it abstract, third."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.defining_files import defining_contracts, defining_files
from schemas import tools as t
from tests.ingested import indexed_app
from tests.streams.symbol_records import views_holding

pytestmark = pytest.mark.anyio

PARSER = """package org.example;

/** Reads tokens. */
public abstract class Parser {
    /** The type of the current number token. */
    public abstract NumberType getNumberType();

    public String describe() { return "parser"; }
}
"""


def _override(name: str, extra: str = "") -> str:
    return (
        "package org.example;\n\n"
        f"public class {name} extends Parser {{\n"
        "    @Override\n"
        "    public NumberType getNumberType() {\n"
        f"        // {name} reads the number type of its input number, number type first {extra}\n"
        "        return NumberType.INT;\n"
        "    }\n"
        "}\n"
    )


JAVA = {
    "src/Parser.java": PARSER,
    **{f"src/{n}.java": _override(n) for n in ("ParserBase", "Delegate", "Filtering")},
}

TRAIT = """pub trait IntoResponse {
    fn into_response(self) -> Response;
}
"""


def _impl(name: str) -> str:
    return (
        f"pub struct {name};\n\n"
        f"impl IntoResponse for {name} {{\n"
        "    fn into_response(self) -> Response { Response::new() }\n"
        "}\n"
    )


RUST = {
    "src/response.rs": TRAIT,
    **{f"src/{n.lower()}.rs": _impl(n) for n in ("Json", "Html", "Text", "Bytes", "Form", "Sse")},
}


def test_the_abstract_declaration_is_the_contract(tmp_path: Path) -> None:
    with views_holding(tmp_path, JAVA) as views:
        query = "where is getNumberType defined"
        found = views.read(lambda conn: defining_contracts(conn, "r", query))
        assert found == {"src/Parser.java"}
        assert views.read(lambda conn: defining_files(conn, "r", query)) == set(JAVA)


def test_a_trait_s_member_is_lifted_though_more_files_than_defining_lifts_declare_it(
    tmp_path: Path,
) -> None:
    """Seven files declare `into_response`, more than MAX_DEFINING: without the contract the
    query lifted none of them."""
    with views_holding(tmp_path, RUST) as views:
        query = "where is into_response defined"
        assert views.read(lambda conn: defining_files(conn, "r", query)) == {"src/response.rs"}


def test_no_contract_when_none_or_every_declaration_is_abstract(tmp_path: Path) -> None:
    plain = {f"src/{n}.java": _override(n).replace("    @Override\n", "") for n in ("A", "B")}
    abstract = {"src/P.java": PARSER, "src/Q.java": PARSER.replace("class Parser", "class Q")}
    query = "where is getNumberType defined"
    for n, files in enumerate((plain, abstract)):
        (tmp_path / str(n)).mkdir()
        with views_holding(tmp_path / str(n), files) as views:
            assert views.read(lambda conn: defining_contracts(conn, "r", query)) == set()


async def test_search_puts_the_contract_above_the_files_implementing_it(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, JAVA) as app:
        answer = await app.service.search(
            t.SearchArgs(repoId="repo", query="where is getNumberType defined")
        )
    paths = [hit.entry.path for hit in answer.hits]
    assert paths[0] == "src/Parser.java", paths
    assert set(paths[:4]) == set(JAVA), paths
