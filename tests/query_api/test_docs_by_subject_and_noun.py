"""A question asking for docs by their subject and noun (`where are the bloom filter docs`,
`where is the bloom filter documentation`) is about docs: the pages first. QA on
apache/commons-collections matched no docs form and ranked ten source files under
bloomfilter/ above src/site/markdown/bloomFilters.md (ninth)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

SOURCE = (
    "package app.bloomfilter;\n\n/** A Bloom filter of {n} bits: a filter of bloom bits. */\n"
    "public class Bloom{n}Filter {{\n    /** Whether the bloom filter holds a bit. */\n"
    "    boolean contains(int bit) {{ return bit == {n}; }}\n}}\n"
)
FILES = {
    "src/site/markdown/bloomFilters.md": (
        "# Bloom filters\n\nBloom filters are a probabilistic structure; this series explains "
        "how the filters here work.\n"
    ),
    **{f"src/main/java/app/bloomfilter/Bloom{n}Filter.java": SOURCE.format(n=n) for n in range(12)},
}


@pytest.mark.parametrize(
    "query", ["where are the bloom filter docs", "where is the bloom filter documentation"]
)
async def test_the_docs_asked_by_subject_come_first(tmp_path: Path, query: str) -> None:
    async with indexed_app(tmp_path, FILES, "app") as app:
        found = await app.service.search(t.SearchArgs(repoId="app", query=query))
        paths = [hit.entry.path for hit in found.hits]
        assert paths[0] == "src/site/markdown/bloomFilters.md", paths
