"""A pom.xml with no `<release>` element sets its Java level as Maven's compiler source and
target, often from a property holding the version (`<main.java.version>1.8</main.java.version>`
read by `<maven.compiler.source>${main.java.version}</maven.compiler.source>`). QA on
OpenFeign/feign: `what java version does feign require` pointed pom.xml at `<artifactId>
feign-parent</artifactId>` and `where is the Java release version set for the build` at
`<maven-javadoc-plugin.version>3.12.0</...>`, neither the level."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.config_sections import manifest_block_naming
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

POM = (
    "<project>\n"  # 1
    "  <artifactId>app-parent</artifactId>\n"  # 2
    "  <properties>\n"  # 3
    "    <maven-javadoc-plugin.version>3.12.0</maven-javadoc-plugin.version>\n"  # 4
    "    <main.java.version>1.8</main.java.version>\n"  # 5
    "    <maven.compiler.source>${main.java.version}</maven.compiler.source>\n"  # 6
    "    <maven.compiler.target>${main.java.version}</maven.compiler.target>\n"  # 7
    "  </properties>\n"  # 8
    "</project>\n"
)
COMPILER_ONLY = (
    "<project>\n  <properties>\n"
    "    <maven.compiler.source>17</maven.compiler.source>\n"  # 3
    "    <maven.compiler.target>17</maven.compiler.target>\n"
    "  </properties>\n</project>\n"
)
RELEASE = (
    "<project>\n  <properties>\n    <java.version>17</java.version>\n  </properties>\n"
    "  <build><plugin><configuration>\n        <release>17</release>\n"  # 6
    "  </configuration></plugin></build>\n</project>\n"
)


def test_the_level_line_of_each_build() -> None:
    assert manifest_block_naming("pom.xml", POM.split("\n"), ["release"]) == (5, 5)
    assert manifest_block_naming("pom.xml", COMPILER_ONLY.split("\n"), ["release"]) == (3, 3)
    # a `<release>` element still answers first
    assert manifest_block_naming("pom.xml", RELEASE.split("\n"), ["release"]) == (6, 6)
    # a question about no release level points at none of them
    assert manifest_block_naming("pom.xml", POM.split("\n"), ["dependencies"]) is None


async def test_the_pom_answers_at_its_java_version(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, {"pom.xml": POM}, "app") as app:
        query = "what java version does app require"
        found = await app.service.search(t.SearchArgs(repoId="app", query=query))
        hit = found.hits[0]
        assert hit.entry.path == "pom.xml", [h.entry.path for h in found.hits]
        assert (hit.startLine, hit.endLine) == (5, 5), hit
