"""`which version of jackson does feign use` points a pom.xml at the property holding the
version (`<jackson.version>2.22.2</jackson.version>`), or at the dependency the question names
whole (`<artifactId>jackson-databind</artifactId>`), as package.json is pointed at its entry.
QA on OpenFeign/feign pointed the root pom.xml at `<artifactId>feign-hystrix</artifactId>` and
jackson/pom.xml at its `<?xml ...?>` line."""

from __future__ import annotations

from query_api.retrieval.config_sections import manifest_block_naming

POM = (
    "<project>\n"  # 1
    "  <artifactId>app-parent</artifactId>\n"  # 2
    "  <properties>\n"  # 3
    "    <jackson3.version>3.2.2</jackson3.version>\n"  # 4
    "    <jackson.version>2.22.2</jackson.version>\n"  # 5
    "  </properties>\n"  # 6
    "  <dependencies>\n"  # 7
    "    <dependency>\n"  # 8
    "      <artifactId>app-jackson</artifactId>\n"  # 9
    "    </dependency>\n"  # 10
    "    <dependency>\n"  # 11
    "      <artifactId>jackson-databind</artifactId>\n"  # 12
    "    </dependency>\n"  # 13
    "  </dependencies>\n"  # 14
    "</project>\n"
)
LINES = POM.split("\n")
SUBJECT = {"dependencies", "jackson", "app"}


def test_the_version_property_of_the_named_dependency() -> None:
    query = "which version of jackson does app use"
    assert manifest_block_naming("pom.xml", LINES, SUBJECT, query) == (5, 5)


def test_a_dependency_named_whole() -> None:
    query = "which version of jackson-databind does app use"
    assert manifest_block_naming("core/pom.xml", LINES, SUBJECT, query) == (12, 12)


def test_no_dependencies_question_no_entry() -> None:
    # a question about no dependency is not pointed at one (a plugin's block or nothing)
    assert (
        manifest_block_naming("pom.xml", LINES, {"jackson"}, "where is jackson configured") is None
    )


def test_a_property_of_its_major_version() -> None:
    pom = "<project>\n  <properties>\n    <okhttp3.version>5.5.0</okhttp3.version>\n"
    lines = (pom + "  </properties>\n</project>\n").split("\n")
    query = "what version of okhttp does app use"
    assert manifest_block_naming("pom.xml", lines, SUBJECT, query) == (3, 3)


# the Apache Commons layout: the project's own artifactId above its dependencies, and the
# version property spelled with dots for the dashed artifact (`commons.io.version`)
COMMONS_POM = (
    "<project>\n"  # 1
    "  <artifactId>commons-csv</artifactId>\n"  # 2
    "  <dependencies>\n"  # 3
    "    <dependency>\n"  # 4
    "      <artifactId>commons-io</artifactId>\n"  # 5
    "      <version>${commons.io.version}</version>\n"  # 6
    "    </dependency>\n"  # 7
    "  </dependencies>\n"  # 8
    "  <properties>\n"  # 9
    "    <commons.io.version>2.22.0</commons.io.version>\n"  # 10
    "  </properties>\n"  # 11
    "</project>\n"
)


def test_a_dotted_property_of_a_dashed_dependency() -> None:
    # QA on apache/commons-csv: `which version of commons-io does commons-csv use` pointed the
    # pom at the project's own `<artifactId>commons-csv</artifactId>` (line 2)
    query = "which version of commons-io does commons-csv use"
    lines = COMMONS_POM.split("\n")
    assert manifest_block_naming("pom.xml", lines, {"commons", "io", "csv"}, query) == (10, 10)


def test_the_projects_own_artifact_is_no_dependency() -> None:
    pom = COMMONS_POM.replace("<commons.io.version>2.22.0</commons.io.version>", "")
    query = "which version of commons-io does commons-csv use"
    lines = pom.split("\n")
    assert manifest_block_naming("pom.xml", lines, {"commons", "io", "csv"}, query) == (5, 5)


def test_an_artifact_whose_first_word_is_named() -> None:
    pom = COMMONS_POM.replace("commons-io</artifactId>", "junit-jupiter</artifactId>")
    query = "what version of junit does commons-csv use"
    lines = pom.split("\n")
    assert manifest_block_naming("pom.xml", lines, {"junit", "csv"}, query) == (5, 5)


def test_the_parent_named_whole() -> None:
    pom = COMMONS_POM.replace(
        "  <artifactId>commons-csv</artifactId>\n",
        "  <parent>\n    <artifactId>commons-parent</artifactId>\n  </parent>\n",
    )
    query = "which version of commons-parent does commons-csv use"
    lines = pom.split("\n")
    assert manifest_block_naming("pom.xml", lines, {"commons", "parent"}, query) == (3, 3)
