"""A pasted message whose line ends with a code name, unquoted, is read without it too: a
value formatted in (Go's `panic(fmt.Sprintf("didn't find any token of type %s", ty))`). QA on
hashicorp/hcl: `panic: didn't find any token of type TokenOBrace` ranked token.go, declaring
TokenOBrace, above hclwrite/parser.go, which writes the message."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.pasted_message import message_queries
from schemas import tools as t
from tests.ingested import indexed_app

QUERY = "panic: didn't find any token of type TokenOBrace"

TOKEN = """package hclsyntax

// TokenType is the type of a token.
type TokenType rune

const (
\tTokenOBrace TokenType = '{'
\tTokenCBrace TokenType = '}'
)

// Token is a token of a type, found in the source.
type Token struct {
\tType TokenType
}
"""
PARSER = """package hclwrite

func (it inputTokens) PartitionType(ty hclsyntax.TokenType) (before, within, after inputTokens) {
\tfor i, t := range it.writerTokens {
\t\tif t.Type == ty {
\t\t\treturn it.Slice(0, i), it.Slice(i, i+1), it.Slice(i+1, len(it.nativeTokens))
\t\t}
\t}
\tpanic(fmt.Sprintf("didn't find any token of type %s", ty))
}
"""


def test_a_trailing_code_name_is_read_as_a_value() -> None:
    queries = message_queries(QUERY)
    assert 'body_terms : "didn t find any token of type"' in queries, queries
    # a code name the message writes inside it is its text, read whole first
    inner = message_queries("panic: non-empty IncludeNewlinesStack after parse")
    assert inner[0] == 'body_terms : "non empty include newlines stack after parse"', inner


@pytest.mark.anyio
async def test_the_file_writing_the_message_ranks_first(tmp_path: Path) -> None:
    files = {"hclsyntax/token.go": TOKEN, "hclwrite/parser.go": PARSER}
    async with indexed_app(tmp_path, files, "hcl") as app:
        found = await app.service.search(t.SearchArgs(repoId="hcl", query=QUERY))
    assert found.hits[0].entry.path == "hclwrite/parser.go", found.hits
