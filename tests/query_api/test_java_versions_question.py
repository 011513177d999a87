"""A question about the Java versions a project builds for (`what java version does guice
require`, `which Java versions are supported`) is about its build's release level, Maven's
`<release>11</release>`. QA on google/guice: both matched no config form and answered ten
source files holding `require` or `java`, no pom.xml."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.path_roles import Role, manifest_list, roles_about
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    "query",
    [
        "what java version does app require",
        "which Java versions are supported",
        "where is the java release level set",
        "what is the minimum supported java version",
        "where is the Java version configured",
        "which JDK version do we compile for",
        "what java version is used",
    ],
)
def test_a_question_about_java_versions_is_about_the_release(query: str) -> None:
    assert Role.CONFIG in roles_about(query), query
    assert manifest_list(query) == "release", query


def test_a_change_of_the_versions_is_a_request() -> None:
    assert roles_about("Adopt java 11 in app builds") == set()
    assert manifest_list("Drop support for Java 8") is None


SOURCE = (
    "package app;\n\n// Requires the java version of the caller to be read.\n"
    "class Part{n} {{\n"
    '  String javaVersion() {{ return System.getProperty("java.version"); }}\n}}\n'
)
POM = (
    "<project>\n  <parent>\n    <version>5</version>\n  </parent>\n  <artifactId>app</artifactId>\n"
    "  <build>\n    <plugin>\n      <configuration>\n        <release>11</release>\n"
    "      </configuration>\n    </plugin>\n  </build>\n</project>\n"
)
FILES = {"pom.xml": POM, **{f"src/app/Part{n}.java": SOURCE.format(n=n) for n in range(30)}}


async def test_the_root_pom_answers_at_its_release(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "app") as app:
        query = "what java version does app require"
        found = await app.service.search(t.SearchArgs(repoId="app", query=query))
        assert found.hits[0].entry.path == "pom.xml", [h.entry.path for h in found.hits]
        hit = found.hits[0]
        # at `<release>11</release>`, not at the parent's `<version>5</version>`
        assert (hit.startLine, hit.endLine) == (9, 9), hit


SERIAL = (
    "package app;\n\nclass Bag{n} implements java.io.Serializable {{\n"
    "  /** Serialization version. */\n"
    "  private static final long serialVersionUID = {n}L;\n}}\n"
)
COMPILER_POM = (
    "<project>\n  <parent>\n    <version>104</version>\n  </parent>\n"
    "  <artifactId>app</artifactId>\n  <properties>\n"
    "    <maven.compiler.source>1.8</maven.compiler.source>\n"
    "    <maven.compiler.target>1.8</maven.compiler.target>\n"
    "  </properties>\n</project>\n"
)


async def test_where_the_java_version_is_configured_answers_the_pom(tmp_path: Path) -> None:
    """QA on apache/commons-collections: `where is the Java version configured` matched no
    config form and answered ten `serialVersionUID` fields, no pom.xml."""
    files = {"pom.xml": COMPILER_POM}
    files.update({f"src/app/Bag{n}.java": SERIAL.format(n=n) for n in range(30)})
    async with indexed_app(tmp_path, files, "app") as app:
        query = "where is the Java version configured"
        found = await app.service.search(t.SearchArgs(repoId="app", query=query))
        assert found.hits[0].entry.path == "pom.xml", [h.entry.path for h in found.hits]
        assert found.hits[0].startLine == 7, found.hits[0]
