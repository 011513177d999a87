"""`what implements X`, `who extends X`, `subclasses of X` ask for the types implementing or
extending X: of X's users, those declaring such a type come first. QA on apache/commons-text:
`what implements StringLookup` matched no users form, ranked StringLookup.java and
StringLookupFactory.java (which implements nothing) first and BiFunctionStringLookup.java,
which implements another interface, among the first five."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import used_name
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

PKG = "src/main/java/org/acme/lookup"
FILES = {
    f"{PKG}/Lookup.java": (
        "package org.acme.lookup;\n\n"
        "/** What implements a lookup: implementations look keys up. */\n"
        "public interface Lookup {\n    String lookup(String key);\n}\n"
    ),
    f"{PKG}/MapLookup.java": (
        "package org.acme.lookup;\n\n"
        "final class MapLookup implements Lookup {\n"
        "    @Override\n    public String lookup(final String key) {\n"
        "        return key;\n    }\n}\n"
    ),
    f"{PKG}/EnvLookup.java": (
        "package org.acme.lookup;\n\n"
        "final class EnvLookup extends Object implements Comparable<String>, Lookup {\n"
        "    @Override\n    public String lookup(final String key) {\n"
        "        return System.getenv(key);\n    }\n\n"
        "    @Override\n    public int compareTo(final String o) {\n        return 0;\n    }\n}\n"
    ),
    # uses Lookup, implements nothing: many references, more words of the query
    f"{PKG}/LookupFactory.java": (
        "package org.acme.lookup;\n\n"
        "/** Which lookup implements what: implementations of Lookup, implements Lookup. */\n"
        "public final class LookupFactory {\n"
        "    public Lookup map() {\n        return new MapLookup();\n    }\n\n"
        "    public Lookup env() {\n        return new EnvLookup();\n    }\n\n"
        "    public Lookup first(final Lookup a, final Lookup b) {\n        return a;\n    }\n}\n"
    ),
}
IMPLEMENTING = {f"{PKG}/MapLookup.java", f"{PKG}/EnvLookup.java"}


async def test_the_implementers_come_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query in ("what implements Lookup", "implementations of Lookup?"):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            paths = [h["entry"]["path"] for h in found["hits"]]
            assert set(paths[:2]) == IMPLEMENTING, (query, paths)
            marked = {h["entry"]["path"] for h in found["hits"] if "uses:Lookup" in h["reasons"]}
            assert marked == IMPLEMENTING, (query, found["hits"])


def test_the_implementer_forms_name_the_type() -> None:
    for query in (
        "what implements Lookup",
        "which classes implement Lookup",
        "who extends Lookup",
        "subclasses of Lookup",
    ):
        assert used_name(query) == "Lookup", query
