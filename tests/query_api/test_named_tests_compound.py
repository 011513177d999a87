"""The tests named for a source file whose name is a compound word (`OptionGroup.java`)
by the naming convention (query_api/symbols/dependents.DependentsResolver.named_tests)."""

from __future__ import annotations

from pathlib import Path

from tests.query_api.test_symbol_dependents import repo_holding

MAIN = "src/main/java/org/apache/commons/cli"
TEST = "src/test/java/org/apache/commons/cli"
FILES = {
    f"{MAIN}/OptionGroup.java": "package org.apache.commons.cli;\npublic class OptionGroup {}\n",
    f"{MAIN}/Options.java": "package org.apache.commons.cli;\npublic class Options {}\n",
    f"{TEST}/OptionGroupTest.java": "package org.apache.commons.cli;\nclass OptionGroupTest {}\n",
    f"{TEST}/OptionsTest.java": "package org.apache.commons.cli;\nclass OptionsTest {}\n",
    "src/http_client.py": "def get():\n    return 1\n",
    "tests/test_http_client.py": "def test_get():\n    assert True\n",
}


def test_a_compound_named_file_has_the_test_named_for_it(tmp_path: Path) -> None:
    """QA on apache/commons-cli: 'tests for OptionGroup' placed OptionsTest.java above
    Options.java but left OptionGroupTest.java 7th, without `tests:`, and 'OptionGroup tests'
    13th: the candidates were read by the stem casefolded as one path word (`optiongroup`),
    which no path holds (the path column holds `option`, `group`, `test`)."""
    with repo_holding(tmp_path, FILES) as repo:
        named = repo.resolver.named_tests
        assert named("r", f"{MAIN}/OptionGroup.java") == [f"{TEST}/OptionGroupTest.java"]
        assert named("r", f"{MAIN}/Options.java") == [f"{TEST}/OptionsTest.java"]
        assert named("r", "src/http_client.py") == ["tests/test_http_client.py"]
