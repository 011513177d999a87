"""A question asking where to make a change (`where do I change how heredocs are parsed`)
searches without its verb: `change` is what the asker will do, not what the code holds. QA on
hashicorp/hcl: `where do I change how heredoc templates are parsed` ranked
hclwrite/format.go first, for its tokenBracketChange, above hclsyntax/parser_template.go."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.form_words import keyword_text
from schemas import tools as t
from tests.ingested import indexed_app

TEMPLATE = """package hclsyntax

// parseTemplate reads a quoted or heredoc template.
func (p *parser) parseTemplate(end TokenType) (Expression, Diagnostics) {
\treturn p.parseTemplateInner(end)
}

// flushHeredocTemplateParts strips the leading spaces of a flush heredoc.
func flushHeredocTemplateParts(parts *templateParts) {
\tparts.flush()
}
"""
FORMAT = """package hclwrite

// tokenBracketChange returns the nesting change of a token: a heredoc opens one.
func tokenBracketChange(tok *Token) int {
\tswitch tok.Type {
\tcase TokenOBrace, TokenOHeredoc:
\t\treturn 1
\tdefault:
\t\treturn 0
\t}
}
"""


def test_a_question_asking_where_to_change_drops_its_verb() -> None:
    assert "change" not in keyword_text("where do I change how heredocs are parsed")
    assert "modify" not in keyword_text("Where should we modify the parser?")
    # a change request keeps its verb, and the question is left whole when nothing follows
    assert keyword_text("Change the default indent") == "Change the default indent"
    assert keyword_text("where should I change") == "where should I change"


@pytest.mark.anyio
async def test_the_file_holding_the_subject_ranks_first(tmp_path: Path) -> None:
    files = {"hclsyntax/parser_template.go": TEMPLATE, "hclwrite/format.go": FORMAT}
    query = "where do I change how heredoc templates are parsed"
    async with indexed_app(tmp_path, files, "hcl") as app:
        found = await app.service.search(t.SearchArgs(repoId="hcl", query=query))
    assert found.hits[0].entry.path == "hclsyntax/parser_template.go", found.hits
