"""`what implements X` for a Go interface points each implementing file at the type that
implements it, not at a line naming the interface. QA on hashicorp/hcl: `what implements
hcl.Body` pointed ext/dynblock/unknown_body.go at the field `template hcl.Body`."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

STRUCTURE = """package hcl

// Body is a container of attributes and blocks.
type Body interface {
\tContent() string
\tAttributes() int
}
"""
# names Body in a field and a comment above the type implementing it
UNKNOWN = """package hcl

// unknownBody wraps a Body whose content is not yet known.
type unknownBody struct {
\ttemplate Body
\tmarks    int
}

func (b unknownBody) String() string { return "?" }

func (b unknownBody) Content() string { return "" }

func (b unknownBody) Attributes() int { return b.marks }
"""
# the type is declared elsewhere: its methods here
MERGED_TYPE = """package hcl

type merged []Body
"""
MERGED_METHODS = """package hcl

// merged bodies: each Body in turn
func (m merged) Content() string { return "" }

func (m merged) Attributes() int { return len(m) }
"""
FILES = {
    "structure.go": STRUCTURE,
    "unknown.go": UNKNOWN,
    "merged.go": MERGED_TYPE,
    "merged_methods.go": MERGED_METHODS,
}


async def test_an_implementing_file_points_at_the_type_implementing_the_interface(
    tmp_path: Path,
) -> None:
    async with indexed_app(tmp_path, FILES, "hcl") as app:
        found = await app.service.search(t.SearchArgs(repoId="hcl", query="what implements Body"))
    by_path = {h.entry.path: h for h in found.hits}
    unknown = by_path["unknown.go"]
    assert "implements:Body" in unknown.reasons, unknown
    assert (unknown.startLine, unknown.endLine) == (4, 7), unknown
    assert (unknown.snippet or "").startswith("4: type unknownBody struct {"), unknown
    assert "11: func (b unknownBody) Content() string" in (unknown.snippet or ""), unknown
    assert "String" not in (unknown.snippet or ""), unknown  # no method Body asks for
    methods = by_path["merged_methods.go"]
    assert methods.startLine == 4, methods
    assert (methods.snippet or "").startswith("4: func (m merged) Content()"), methods


async def test_where_is_an_interface_implemented_asks_for_its_implementers(
    tmp_path: Path,
) -> None:
    """QA on hashicorp/hcl: `where is DiagnosticWriter implemented` was read for the
    interface's definition, diagnostic.go first, the writers implementing it below."""
    async with indexed_app(tmp_path, FILES, "hcl") as app:
        found = await app.service.search(
            t.SearchArgs(repoId="hcl", query="where is the Body interface implemented")
        )
    first = [h.entry.path or "" for h in found.hits[:2]]
    assert sorted(first) == ["merged_methods.go", "unknown.go"], found.hits
    unknown = next(h for h in found.hits if h.entry.path == "unknown.go")
    assert (unknown.snippet or "").startswith("4: type unknownBody struct {"), unknown
