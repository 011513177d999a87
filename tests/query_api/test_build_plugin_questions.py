"""A question for a build tool's plugin (`which maven plugin checks the license headers`, `what
gradle plugin publishes the jars`) is about configuration: the plugin is declared in the
build's files (pom.xml, build.gradle). QA on OpenFeign/feign matched no config form and
ranked the Maven wrapper scripts (mvnw, mvnw.cmd, writing `maven` throughout) first, then
two Java sources, and the root pom.xml, declaring license-maven-plugin, nowhere in the top
ten."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.path_roles import Role, roles_about
from schemas import tools as t
from tests.ingested import indexed_app


@pytest.mark.parametrize(
    "query",
    [
        "which maven plugin checks the license headers",
        "what maven plugin formats the code",
        "Which Gradle plugins publish the jars?",
        "which maven profile runs the integration tests",
    ],
)
def test_a_build_plugin_question_is_about_config(query: str) -> None:
    assert Role.CONFIG in roles_about(query)


@pytest.mark.parametrize(
    "query",
    [
        "Bump the maven plugin versions",  # a change request
        "which plugin checks the license headers",  # no build tool: maybe the code's own
        "add a maven plugin that checks license headers",
    ],
)
def test_others_are_not(query: str) -> None:
    assert Role.CONFIG not in roles_about(query)


_WRAPPER = "".join(
    f'# maven wrapper step {i}: download the maven distribution and check it\necho "maven {i}"\n'
    for i in range(30)
)

FILES = {
    "mvnw": "#!/bin/sh\n" + _WRAPPER,
    "pom.xml": (
        "<project>\n  <build>\n    <plugins>\n      <plugin>\n"
        "        <artifactId>license-maven-plugin</artifactId>\n"
        "        <configuration>\n          <header>APACHE-2.txt</header>\n"
        "          <strictCheck>true</strictCheck>\n        </configuration>\n"
        "      </plugin>\n    </plugins>\n  </build>\n</project>\n"
    ),
    "src/main/java/app/Headers.java": (
        "package app;\n\n/** Checks the headers of a request. */\n"
        "final class Headers {\n  boolean check(String header) { return !header.isEmpty(); }\n}\n"
    ),
}


@pytest.mark.anyio
async def test_the_build_file_leads(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "app") as app:
        query = "which maven plugin checks the license headers"
        found = await app.service.search(t.SearchArgs(repoId="app", query=query))
        paths = [h.entry.path for h in found.hits]
        assert paths[0] == "pom.xml", paths
