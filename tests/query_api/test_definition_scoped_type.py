"""A definition query saying which type to look in (`where is the indices method of
EnhancedDoubleHasher`, `where is getItem defined in the Storage class`) means that type's
declaration of the name, not the interface's it implements nor another implementation's
(definition_sites.scoped_type, read by defining_files._of_type). QA on
apache/commons-collections: that question ranked Hasher.java, declaring the interface's
abstract `indices`, first and EnhancedDoubleHasher.java second, tied."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.definition_sites import scoped_type
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

HASHER = (
    "package app;\n\n/** A hasher: the indices of an item for a shape. */\n"
    "public interface Hasher {\n    /** The indices this hasher's item sets in a shape. */\n"
    "    int[] indices(int shape);\n}\n"
)
IMPLEMENTATION = (
    "package app;\n\n/** A {name}: a hasher of indices. */\n"
    "public class {name} implements Hasher {{\n    @Override\n"
    "    public int[] indices(final int shape) {{\n        return new int[shape];\n    }}\n}}\n"
)
FILES = {
    "src/main/java/app/Hasher.java": HASHER,
    **{
        f"src/main/java/app/{name}.java": IMPLEMENTATION.format(name=name)
        for name in ("EnhancedDoubleHasher", "IncrementingHasher", "SimpleHasher")
    },
}


def test_the_type_a_definition_query_looks_in() -> None:
    assert scoped_type("where is the indices method of EnhancedDoubleHasher") == (
        "EnhancedDoubleHasher"
    )
    assert scoped_type("where is getItem defined in the Storage class") == "Storage"
    assert scoped_type("where is the watch method of the fs driver") is None  # a word
    assert scoped_type("where is getKeys defined in s3.ts") is None  # a file
    assert scoped_type("where is the indices method") is None


@pytest.mark.parametrize("owner", ["EnhancedDoubleHasher", "SimpleHasher"])
async def test_the_named_types_declaration_first(tmp_path: Path, owner: str) -> None:
    async with indexed_app(tmp_path, FILES, "app") as app:
        query = f"where is the indices method of {owner}"
        found = await app.service.search(t.SearchArgs(repoId="app", query=query))
    paths = [hit.entry.path for hit in found.hits]
    assert paths[0] == f"src/main/java/app/{owner}.java", paths
    assert found.hits[0].startLine is not None and found.hits[0].startLine >= 5, found.hits[0]
