"""`where is X defined` for a name only tests declare (`test_hyperlink`) answers the test file
declaring it first in the hybrid answer too, as the name alone does (search.looks_up_tests,
ladder._tests_looked_up). QA on sharkdp/fd: `where is test_hyperlink defined` left
tests/tests.rs, its one declaration, out of the first ten, below hyperlink.rs and every file
saying `hyperlink`: tests are never embedded, so the fusion passed it, and only a query that
is the name alone looked the test up (the real ladder, views and in-process Qdrant, a
bag-of-words embedder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.vectors.test_ladder import open_rig

pytestmark = pytest.mark.anyio

SOURCE = (
    "/// A hyperlink to a path: the hyperlink's url, for a terminal that shows hyperlinks.\n"
    "pub struct PathUrl(String);\n\n"
    "/// the hyperlink of a path, where it is defined\n"
    "pub fn hyperlink(path: &str) -> PathUrl {\n"
    '    PathUrl(format!("file://{path}"))\n'
    "}\n"
)
FILLER = "#[test]\nfn test_filler_{n}() {{\n    let te = TestEnv::new();\n    te.run({n});\n}}\n\n"
FILES = {
    "src/hyperlink.rs": SOURCE,
    **{
        f"src/walk_{n}.rs": (
            "/// where the walk is defined: where each entry is defined and where it is read\n"
            f"pub fn walk_{n}(path: &str) -> usize {{\n    path.len()\n}}\n"
        )
        for n in range(6)
    },
    "src/output.rs": (
        "/// prints the entry, as a hyperlink when asked\n"
        "pub fn print_entry(path: &str, hyperlink: bool) -> bool {\n    hyperlink\n}\n"
    ),
    "tests/tests.rs": (
        "".join(FILLER.format(n=n) for n in range(80)) + "#[test]\nfn test_hyperlink() {\n"
        '    let expected = "file://a.foo";\n'
        "    assert!(!expected.is_empty());\n}\n"
    ),
}


async def test_where_a_name_only_tests_declare_is_defined_is_its_test_file(
    tmp_path: Path,
) -> None:
    async for rig in open_rig(tmp_path, files=FILES):
        await rig.indexer.run_until_idle()
        for query in ("where is test_hyperlink defined", "definition of test_hyperlink"):
            answer = await rig.plane.retriever.search("repo", query, 10)
            paths = [h.entry.path for h in answer.hits]
            assert paths[0] == "tests/tests.rs", (query, paths)
        # a name a source file declares is no test lookup: the source leads
        answer = await rig.plane.retriever.search("repo", "where is print_entry defined", 10)
        assert answer.hits[0].entry.path == "src/output.rs"
