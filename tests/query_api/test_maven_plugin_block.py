"""A question about what a Maven build configures (`where is the japicmp API compatibility check
configured`) points pom.xml at the `<plugin>` block whose artifactId holds the subject's words
(`japicmp-maven-plugin`), as a `[tool.mypy]` section answers `where is mypy configured`. QA on
OpenFeign/feign pointed pom.xml at `<strictCheck>true</strictCheck>` (the license plugin's, for
`check`), the japicmp plugin's block two hundred lines below."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.config_sections import manifest_block_naming
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

POM = (
    "<project>\n"  # 1
    "  <properties>\n"  # 2
    "    <japicmp-maven-plugin.version>0.26.1</japicmp-maven-plugin.version>\n"  # 3
    "  </properties>\n"  # 4
    "  <build>\n"  # 5
    "    <plugins>\n"  # 6
    "      <plugin>\n"  # 7
    "        <groupId>com.mycila</groupId>\n"  # 8
    "        <artifactId>license-maven-plugin</artifactId>\n"  # 9
    "        <configuration>\n"  # 10
    "          <strictCheck>true</strictCheck>\n"  # 11
    "        </configuration>\n"  # 12
    "      </plugin>\n"  # 13
    "      <plugin>\n"  # 14
    "        <groupId>com.github.siom79.japicmp</groupId>\n"  # 15
    "        <artifactId>japicmp-maven-plugin</artifactId>\n"  # 16
    "        <configuration>\n"  # 17
    "          <onlyModified>true</onlyModified>\n"  # 18
    "        </configuration>\n"  # 19
    "      </plugin>\n"  # 20
    "    </plugins>\n"  # 21
    "  </build>\n"  # 22
    "</project>\n"
)


def test_the_plugin_block_the_subject_names() -> None:
    lines = POM.split("\n")
    subject = {"japicmp", "api", "compatibility", "check"}
    assert manifest_block_naming("pom.xml", lines, subject) == (14, 20)
    assert manifest_block_naming("pom.xml", lines, {"license", "maven", "plugin"}) == (7, 13)
    # `maven` and `plugin` name every plugin: none of them alone
    assert manifest_block_naming("pom.xml", lines, {"maven", "plugin", "formats"}) is None
    assert manifest_block_naming("other.xml", lines, subject) is None


async def test_the_pom_answers_at_the_plugin(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, {"pom.xml": POM}, "app") as app:
        query = "where is the japicmp API compatibility check configured"
        found = await app.service.search(t.SearchArgs(repoId="app", query=query))
        hit = found.hits[0]
        assert hit.entry.path == "pom.xml", [h.entry.path for h in found.hits]
        assert (hit.startLine, hit.endLine) == (14, 20), hit
