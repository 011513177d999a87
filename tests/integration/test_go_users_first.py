"""A query for the users of a Go method (`what calls getFlagType`) places the files calling it
first: the real index, the keyword ladder, the MCP client. QA on spf13/pflag: a Go method is
called through a value (`f.getFlagType(...)`), which the cross-references do not resolve, so
no caller was found; the declaring file came first, then a file whose `flagType` field only
shares the name's words, and three of the 34 calling files."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import member_users
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "flag.go": (
        "package pflag\n\n"
        "// getFlagType looks a flag up and converts its value.\n"
        "func (f *FlagSet) getFlagType(name string, ftype string) (interface{}, error) {\n"
        "\treturn nil, nil\n}\n"
    ),
    "float64.go": (
        "package pflag\n\n"
        "// GetFloat64 returns the float64 value of a flag with the given name.\n"
        "func (f *FlagSet) GetFloat64(name string) (float64, error) {\n"
        '\tval, err := f.getFlagType(name, "float64")\n'
        "\tif err != nil {\n\t\treturn 0, err\n\t}\n"
        "\treturn val.(float64), nil\n}\n"
    ),
    # a doc's code example calls it: no user of it in the code
    "README.md": "# pflag\n\n```go\nval, err := flags.getFlagType(name)\n```\n",
    # holds the query's words, calls nothing
    "golangflag.go": (
        "package pflag\n\n"
        "// what calls the flag type: the type of a flag from the go flag package\n"
        "type flagValueWrapper struct {\n\tflagType string\n}\n\n"
        "func (v *flagValueWrapper) Type() string {\n\treturn v.flagType\n}\n"
    ),
}


async def test_a_query_for_the_callers_of_a_go_method_ranks_them_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query in ("what calls getFlagType", "callers of FlagSet.getFlagType"):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            first = found["hits"][0]
            assert first["entry"]["path"] == "float64.go", found["hits"]
            assert "uses:getFlagType" in first["reasons"], first
            assert (first["startLine"], first["endLine"]) == (4, 10), first
            paths = [h["entry"]["path"] for h in found["hits"]]
            assert "golangflag.go" not in paths[:1]
            marked = [
                h["entry"]["path"] for h in found["hits"] if "uses:getFlagType" in h["reasons"]
            ]
            assert marked == ["float64.go"], found["hits"]


def test_a_member_use_is_a_call_through_a_value_outside_comments() -> None:
    bodies = {
        "a.go": "x := f.getFlagType(name)\n// f.getFlagType in a comment\ny := g.getFlagType\n",
        "b.go": "// f.getFlagType(name) in a comment only\n",
        "c.go": "z := getFlagType(name)\nw := f.getFlagTypes(name)\n",  # no member use of it
    }
    assert member_users("getFlagType", bodies) == {"a.go": [1, 3]}
