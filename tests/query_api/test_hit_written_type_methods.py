"""A hit's lines, of lines matching alike, are in the methods of a type the query writes
whole and the hit was found for (`symbol:` reasons), Go methods being declared apart from
their type. QA on hashicorp/hcl: `pass marks through unknown ForExpr values` pointed
hclsyntax/expression.go at ConditionalExpr.Value, whose lines matched as well as
ForExpr.Value's."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

EXPRESSION = """package hclsyntax

// ConditionalExpr is a conditional.
type ConditionalExpr struct {
\tCondition Expression
}

func (e *ConditionalExpr) Value(ctx *EvalContext) (Value, Diagnostics) {
\t// a pass-through of the other value
\tresult := e.Condition.Value(ctx)
\t// the result type is still unknown here
\treturn result, nil
}

// ForExpr is a for expression.
type ForExpr struct {
\tKeyVar string
\tValVar string
}

func (e *ForExpr) Range() Range {
\treturn Range{}
}

func (e *ForExpr) Value(ctx *EvalContext) (Value, Diagnostics) {
\tvar marks []ValueMarks
\tcollVal := e.Coll(ctx)
\t// the collection is unknown: keep its marks
\treturn collVal.WithMarks(marks), nil
}
"""


async def test_lines_in_the_written_type_s_methods_win_a_tie(tmp_path: Path) -> None:
    query = "pass marks through unknown ForExpr values"
    async with indexed_app(tmp_path, {"hclsyntax/expression.go": EXPRESSION}, "hcl") as app:
        found = await app.service.search(t.SearchArgs(repoId="hcl", query=query))
    hit = found.hits[0]
    assert "symbol:hclsyntax.ForExpr" in hit.reasons, hit
    assert hit.startLine is not None and 25 <= hit.startLine <= 30, hit
