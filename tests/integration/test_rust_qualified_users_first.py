"""A query for the users of a one-word method the query qualifies by its type (`what calls
ExitCode::exit`) places the files calling it through a value first. QA on sharkdp/fd: a Rust
method called through a value (`exit_code.exit()`, `ExitCode::KilledBySigint.exit()`) is no
cross-reference the dependents resolve, and the member-use fallback took only names of several
words (`exit` alone is as often another type's); so no caller was found and the declaring file
led, main.rs (two calls) was not in the first four. The type the query names is what tells
its calls from another type's: a file using the member and naming the type is a user."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import naming_qualifier, qualifier
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/exit_codes.rs": (
        "#[derive(Debug, Clone, Copy, PartialEq, Eq)]\n"
        "pub enum ExitCode {\n    Success,\n    GeneralError,\n}\n\n"
        "impl ExitCode {\n"
        "    pub fn exit(self) -> ! {\n"
        "        std::process::exit(1)\n"
        "    }\n"
        "}\n"
    ),
    "src/main.rs": (
        "mod exit_codes;\nmod child;\n\n"
        "use crate::exit_codes::ExitCode;\n\n"
        "fn run() -> ExitCode {\n    ExitCode::Success\n}\n\n"
        "fn main() {\n"
        "    let result = run();\n"
        "    result.exit();\n"
        "}\n"
    ),
    # another type's `exit`, and the words of the query: no user of ExitCode::exit
    "src/child.rs": (
        "/// what calls exit on a child: the code stops it when the exit code says so\n"
        "pub fn stop(worker: &mut Worker) {\n"
        "    worker.exit();\n"
        "}\n"
    ),
}


async def test_a_query_for_the_callers_of_a_qualified_one_word_method_ranks_them_first(
    tmp_path: Path,
) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query in ("what calls ExitCode::exit", "callers of ExitCode.exit"):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            first = found["hits"][0]
            assert first["entry"]["path"] == "src/main.rs", found["hits"]
            assert "uses:exit" in first["reasons"], first
            marked = [h["entry"]["path"] for h in found["hits"] if "uses:exit" in h["reasons"]]
            assert marked == ["src/main.rs"], found["hits"]


def test_a_file_naming_the_qualifier_is_one_that_writes_the_type_as_a_word() -> None:
    assert qualifier("ExitCode::exit") == "ExitCode"
    assert qualifier("Logger.AddCallerSkip") == "Logger"
    assert qualifier("exit") is None
    bodies = {
        "a.rs": "use crate::exit_codes::ExitCode;\nfn f() { code.exit(); }\n",
        "b.rs": "fn g(w: Worker) { w.exit(); } // ExitCodes are elsewhere\n",
    }
    assert naming_qualifier("ExitCode", bodies) == {"a.rs"}
