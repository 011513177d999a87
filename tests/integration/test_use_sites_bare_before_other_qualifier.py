"""`what calls X` points a file at a line calling X itself before one calling another
package's X (`strconv.ParseUint`). QA on valyala/fasthttp: `what calls ParseUint` pointed
bytesconv_test.go at `strconv.ParseUint(fits, 10, strconv.IntSize-1)` (lines 345 and 348),
the standard library's function, not at its calls of fasthttp's own ParseUint."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "go.mod": "module example.com/web\n\ngo 1.22\n",
    "bytesconv.go": (
        "package web\n\n"
        "// ParseUint parses uint from buf.\n"
        "func ParseUint(buf []byte) (int, error) {\n"
        "\treturn len(buf), nil\n"
        "}\n"
    ),
    "bytesconv_test.go": (
        "package web\n\n"
        'import (\n\t"strconv"\n\t"testing"\n)\n\n'
        "func TestParseUintMatchesStrconv(t *testing.T) {\n"
        '\tif _, err := strconv.ParseUint("12", 10, 64); err != nil {\n'
        "\t\tt.Fatal(err)\n"
        "\t}\n"
        "}\n\n"
        "func testParseUintSuccess(t *testing.T, s string, expected int) {\n"
        "\tn, err := ParseUint([]byte(s))\n"
        "\tif err != nil || n != expected {\n"
        "\t\tt.Fatal(err)\n"
        "\t}\n"
        "}\n"
    ),
}


async def test_a_bare_call_comes_before_another_packages_function(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "what calls ParseUint"}
        )
        hit = next(h for h in found["hits"] if h["entry"]["path"] == "bytesconv_test.go")
        assert "ParseUint([]byte(s))" in hit.get("snippet", ""), hit
        assert "strconv" not in hit.get("snippet", ""), hit
        assert hit["startLine"] == 14, hit  # testParseUintSuccess
