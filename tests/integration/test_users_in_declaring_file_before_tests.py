"""`what calls X` / `who uses X` counts the file declaring X as a user when its other
declarations call X, after the other files' code and before the tests. QA on
valyala/fasthttp: `who uses normalizeHeaderKey` placed three test files first (its only users
outside header.go) and header.go, where nine functions call it, after them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "go.mod": "module example.com/web\n\ngo 1.22\n",
    "header.go": (
        "package web\n\n"
        "func normalizeHeaderKey(b []byte, disable bool) {\n"
        "\tif disable {\n\t\treturn\n\t}\n"
        "\tfor i := range b {\n\t\tb[i] |= 0x20\n\t}\n"
        "}\n\n"
        "func PeekBytes(key []byte) []byte {\n"
        "\tnormalizeHeaderKey(key, false)\n"
        "\treturn key\n"
        "}\n\n"
        "func SetBytesKV(key, value []byte) {\n"
        "\tnormalizeHeaderKey(key, false)\n"
        "\t_ = value\n"
        "}\n"
    ),
    "server.go": "package web\n\nfunc Serve(addr string) error {\n\treturn nil\n}\n",
    "header_test.go": (
        'package web\n\nimport "testing"\n\n'
        "func TestNormalizeHeaderKey(t *testing.T) {\n"
        '\tb := []byte("Content-Type")\n'
        "\tnormalizeHeaderKey(b, false)\n"
        "}\n"
    ),
    "fuzz_test.go": (
        'package web\n\nimport "testing"\n\n'
        "func FuzzHeaderKey(f *testing.F) {\n"
        "\tf.Fuzz(func(t *testing.T, b []byte) {\n"
        "\t\tnormalizeHeaderKey(b, false)\n"
        "\t})\n"
        "}\n"
    ),
}


async def test_the_declaring_file_calling_the_name_comes_before_its_tests(
    tmp_path: Path,
) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "who uses normalizeHeaderKey"}
        )
        hits = found["hits"]
        paths = [hit["entry"]["path"] for hit in hits]
        assert paths[0] == "header.go", hits
        assert "uses:normalizeHeaderKey" in hits[0]["reasons"], hits[0]
        users = [h["entry"]["path"] for h in hits if "uses:normalizeHeaderKey" in h["reasons"]]
        assert set(users) == {"header.go", "header_test.go", "fuzz_test.go"}, hits


async def test_the_declaring_file_comes_after_other_files_calling_the_name(
    tmp_path: Path,
) -> None:
    # QA on Textualize/rich: `what calls cell_len` ranked rich/cells.py, which declares it and
    # calls it, first (the search's order) above twenty files calling it
    files = dict(FILES)
    files["server.go"] = (
        "package web\n\nfunc Serve(key []byte) error {\n"
        "\tnormalizeHeaderKey(key, true)\n\treturn nil\n}\n"
    )
    write_files(tmp_path / "ws" / "repo", files)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "what calls normalizeHeaderKey"}
        )
    users = [h["entry"]["path"] for h in found["hits"] if "uses:normalizeHeaderKey" in h["reasons"]]
    assert users[:2] == ["server.go", "header.go"], found["hits"]
    assert set(users[2:]) == {"header_test.go", "fuzz_test.go"}, found["hits"]
