"""Java dependents over real views fed by the real processors (QA on apache/commons-io).

A bare type name in Java means a declaration of the file's own package, one an import or a
wildcard import names, or a nested type of the file's own classes. The resolver matched a
bare name against every type of that name in the repository: `new
CharSequenceInputStream.Builder()` in CopyUtilsTest (package org.apache.commons.io) made it a
dependent, and a test, of input/Tailer.java, whose nested `Builder` it never names.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.query_api.test_symbol_dependents import Repo, repo_holding

TAILER = """package org.shop.input;

public class Tailer {
    public static class Builder {
        public Tailer get() { return new Tailer(); }
    }
}
"""

STREAM = """package org.shop.input;

public class CharStream {
    public static class Builder {
        public CharStream get() { return new CharStream(); }
    }
}
"""

# another package: `CharStream.Builder` is CharStream's nested type, never Tailer's
COPY_TEST = """package org.shop;

import org.shop.input.CharStream;

public class CopyTest {
    void copy() { new CharStream.Builder().get(); }
}
"""

# the same package under the test source root: a bare `Tailer` is this package's
TAILER_TEST = """package org.shop.input;

public class TailerTest {
    void t() { new Tailer.Builder().get(); }
}
"""

# a wildcard import brings the package's types in bare
STAR_USER = """package org.shop.app;

import org.shop.input.*;

public class StarUser {
    Tailer tailer;
}
"""


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with repo_holding(
        tmp_path,
        {
            "src/main/java/org/shop/input/Tailer.java": TAILER,
            "src/main/java/org/shop/input/CharStream.java": STREAM,
            "src/test/java/org/shop/CopyTest.java": COPY_TEST,
            "src/test/java/org/shop/input/TailerTest.java": TAILER_TEST,
            "src/main/java/org/shop/app/StarUser.java": STAR_USER,
        },
    ) as r:
        yield r


def test_a_bare_type_name_of_another_package_is_not_this_package_s(repo: Repo) -> None:
    found = {path for path, _symbol in repo.dependents("src/main/java/org/shop/input/Tailer.java")}
    assert "src/test/java/org/shop/CopyTest.java" not in found  # CharStream.Builder
    # its own package under the test root, and a wildcard import of the package
    assert "src/test/java/org/shop/input/TailerTest.java" in found
    assert "src/main/java/org/shop/app/StarUser.java" in found


def test_a_layout_that_does_not_mirror_packages_keeps_bare_names_in_scope(repo: Repo) -> None:
    # `package org.shop.odd` in legacy/ and in other/: one package, two directories that do
    # not say so; a bare name may mean the other directory's declaration
    repo.add(
        {
            "legacy/Odd.java": "package org.shop.odd;\npublic class Odd {}\n",
            "other/User.java": "package org.shop.odd;\npublic class User { Odd odd; }\n",
        }
    )
    assert ("other/User.java", "org.shop.odd.User.odd") in repo.dependents("legacy/Odd.java")


def test_a_test_named_for_a_class_in_another_package_is_not_its_test(repo: Repo) -> None:
    # retrofit: jaxb3's JaxbConverterFactoryTest was listed as a test of jaxb's factory
    repo.add(
        {
            "src/test/java/org/shop/input/CharStreamTest.java": (
                "package org.shop.input;\nclass CharStreamTest { void t() { } }\n"
            ),
            # another package with a CharStream of its own: its test is that one's
            "src/main/java/org/other/CharStream.java": (
                "package org.other;\npublic class CharStream { }\n"
            ),
            "src/test/java/org/other/CharStreamTest.java": (
                "package org.other;\nclass CharStreamTest { void t() { } }\n"
            ),
            # a package of tests with no CharStream of its own (junit4's org.junit.tests.*)
            "src/test/java/org/tests/CharStreamTest.java": (
                "package org.tests;\nclass CharStreamTest { void t() { } }\n"
            ),
        }
    )
    tests = {path for path, _symbol in repo.tests("src/main/java/org/shop/input/CharStream.java")}
    assert "src/test/java/org/shop/input/CharStreamTest.java" in tests
    assert "src/test/java/org/other/CharStreamTest.java" not in tests
    assert "src/test/java/org/tests/CharStreamTest.java" in tests
