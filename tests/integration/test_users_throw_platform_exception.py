"""`who throws X` for an exception no repository file declares (the platform's
`IllegalStateException`) answers the files throwing it, at the `throw` line. QA on
apache/commons-text: `who throws StringIndexOutOfBoundsException` placed no user (no
declaration to follow) and pointed hits at Javadoc `@throws` lines and at a file that only
says `throws IOException`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import raisers
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

PKG = "src/main/java/org/acme/text"
FILES = {
    # documents it, many times, throws nothing
    f"{PKG}/Docs.java": (
        "package org.acme.text;\n\n"
        "public class Docs {\n"
        "    /**\n     * @throws IllegalStateException if illegal state.\n"
        "     * @throws IllegalStateException when the state is illegal; who throws it.\n"
        "     */\n    public void check() {\n    }\n}\n"
    ),
    f"{PKG}/Builder.java": (
        "package org.acme.text;\n\n"
        "public class Builder {\n"
        "    private int size;\n\n"
        "    public Builder grow(final int n) {\n"
        "        if (n < 0) {\n"
        '            throw new IllegalStateException("negative: " + n);\n'
        "        }\n        size += n;\n        return this;\n    }\n}\n"
    ),
    f"{PKG}/Reader.java": (
        "package org.acme.text;\n\n"
        "public class Reader {\n"
        "    public void read() {\n"
        "        try {\n            new Builder().grow(-1);\n"
        "        } catch (final IllegalStateException e) {\n            return;\n        }\n"
        "    }\n}\n"
    ),
}


async def test_the_files_throwing_it_come_first_at_the_throw(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = "who throws IllegalStateException"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        first = found["hits"][0]
        assert first["entry"]["path"] == f"{PKG}/Builder.java", found["hits"]
        assert "uses:IllegalStateException" in first["reasons"], first
        assert first["startLine"] <= 8 <= first["endLine"], first
        marked = [h for h in found["hits"] if "uses:IllegalStateException" in h["reasons"]]
        assert len(marked) == 1, found["hits"]


def test_raisers_read_throw_and_raise_statements_not_comments() -> None:
    bodies = {
        "a.java": "    throw new IllegalStateException();\n",
        "b.py": "    raise errors.BadRequest('x')\n",
        "c.java": "     * @throws IllegalStateException never\n",
        "d.java": "} catch (IllegalStateException e) {\n",
    }
    assert raisers("IllegalStateException", bodies) == {"a.java": [1]}
    assert raisers("BadRequest", bodies) == {"b.py": [1]}
