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
