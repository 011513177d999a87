"""A definition query may write a member as its type's possessive, the type's kind before
it at times (`where is the ObjectConsKeyExpr type's Value method`, `where is the Upgrader's
CheckOrigin field`): it asks for `Type.member`. QA on hashicorp/hcl: the first matched no
definition form and pointed hclsyntax/expression.go at `type ObjectConsKeyExpr struct`, not
at its Value method."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.definition_sites import defined_name
from query_api.retrieval.users_first import used_name
from schemas import tools as t
from tests.ingested import indexed_app

EXPRESSION = """package hclsyntax

// ObjectConsKeyExpr is a key in an object constructor.
type ObjectConsKeyExpr struct {
\tWrapped Expression
}

func (e *ObjectConsKeyExpr) Range() Range {
\treturn e.Wrapped.Range()
}

// Value returns the key's value.
func (e *ObjectConsKeyExpr) Value(ctx *EvalContext) (Value, Diagnostics) {
\treturn e.Wrapped.Value(ctx)
}
"""


def test_a_possessive_member_is_the_type_s_member() -> None:
    assert defined_name("where is the ObjectConsKeyExpr type's Value method") == (
        "ObjectConsKeyExpr.Value"
    )
    assert defined_name("where is the Upgrader's CheckOrigin field") == "Upgrader.CheckOrigin"
    assert defined_name("where is the Upgrader's CheckOrigin field defined") == (
        "Upgrader.CheckOrigin"
    )
    assert used_name("where is the Token struct's Range field used") == "Token.Range"
    assert defined_name("where is setup.py") is None  # a dotted name is a file unless possessive


@pytest.mark.anyio
async def test_the_hit_is_the_member(tmp_path: Path) -> None:
    query = "where is the ObjectConsKeyExpr type's Value method"
    async with indexed_app(tmp_path, {"hclsyntax/expression.go": EXPRESSION}, "hcl") as app:
        found = await app.service.search(t.SearchArgs(repoId="hcl", query=query))
    hit = found.hits[0]
    assert hit.startLine == 13, hit
