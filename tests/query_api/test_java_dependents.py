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


# retrofit's KotlinExtensions.kt: top-level functions of package org.shop, which Java calls
# through the file's class (`@file:JvmName("Extensions")`, else ExtensionsKt)
EXTENSIONS_KT = """@file:JvmName("Extensions")

package org.shop

fun create(): Int = 1
"""


def test_a_kotlin_top_level_function_is_in_scope_by_its_package(repo: Repo) -> None:
    # retrofit: every Java file calling `retrofit.create(...)` (Retrofit's method) or any
    # other `create` was a dependent of KotlinExtensions.kt's `Retrofit.create()` extension,
    # while Java calls through the file's class (`KotlinExtensions.await`) were missed
    repo.add(
        {
            "src/main/java/org/shop/Extensions.kt": EXTENSIONS_KT,
            "src/main/java/org/shop/Store.java": (
                "package org.shop;\n\npublic class Store {\n"
                "    public Store create() { return this; }\n}\n"
            ),
            # another package's member call of another class's `create`: no use of it
            "src/main/java/org/app/Main.java": (
                "package org.app;\n\nimport org.shop.Store;\n\n"
                "class Main {\n    void m(Store s) { s.create(); }\n}\n"
            ),
            "src/main/java/org/other/Plain.kt": (
                "package org.other\n\nfun use3(s: org.shop.Store) = s.create()\n"
            ),
            # the file's own package, a wildcard import, the name imported
            "src/main/java/org/shop/Caller.java": (
                "package org.shop;\n\nclass Caller {\n"
                "    int m() { return Extensions.create(); }\n}\n"
            ),
            "src/main/java/org/app/StarUser.kt": (
                "package org.app\n\nimport org.shop.*\n\nfun use2(): Int = create()\n"
            ),
            "src/main/java/org/app/KtUser.kt": (
                "package org.app\n\nimport org.shop.create\n\nfun use(): Int = create()\n"
            ),
            # Java through the file's class, imported or imported static
            "src/main/java/org/app/FacadeUser.java": (
                "package org.app;\n\nimport org.shop.Extensions;\n\n"
                "class FacadeUser {\n    int m() { return Extensions.create(); }\n}\n"
            ),
            "src/main/java/org/app/StaticUser.java": (
                "package org.app;\n\nimport static org.shop.Extensions.create;\n\n"
                "class StaticUser {\n    int m() { return create(); }\n}\n"
            ),
        }
    )
    found = {path for path, _symbol in repo.dependents("src/main/java/org/shop/Extensions.kt")}
    assert found == {
        "src/main/java/org/shop/Caller.java",
        "src/main/java/org/app/StarUser.kt",
        "src/main/java/org/app/KtUser.kt",
        "src/main/java/org/app/FacadeUser.java",
        "src/main/java/org/app/StaticUser.java",
    }


def test_a_kotlin_extension_called_on_an_imported_object_is_used(repo: Repo) -> None:
    # retrofit: `ProtoBuf.asConverterFactory(contentType)` in a test of the converter's own
    # package calls Factory.kt's `fun BinaryFormat.asConverterFactory`; the reference is
    # qualified through the receiver's import (`...protobuf.ProtoBuf.asConverterFactory`),
    # as a member of ProtoBuf would be, and matched nothing
    repo.add(
        {
            "src/main/java/org/shop/Factory.kt": (
                "package org.shop\n\nimport org.fmt.Format\n\nfun Format.asFactory(): Int = 1\n"
            ),
            "src/test/java/org/shop/FactoryTest.kt": (
                "package org.shop\n\nimport org.fmt.Json\n\n"
                "class FactoryTest {\n    fun setUp() { Json.asFactory() }\n}\n"
            ),
            # another package importing neither the function nor its package: another's
            "src/main/java/org/other/Other.kt": (
                "package org.other\n\nimport org.fmt.Json\n\nfun other() = Json.asFactory()\n"
            ),
        }
    )
    found = {path for path, _symbol in repo.dependents("src/main/java/org/shop/Factory.kt")}
    assert found == {"src/test/java/org/shop/FactoryTest.kt"}


def test_a_multi_release_variant_of_a_class_has_its_package_s_users(repo: Repo) -> None:
    # retrofit: src/main/java16/retrofit2/DefaultMethodSupport.java is the Java 16 variant of
    # src/main/java/retrofit2/DefaultMethodSupport.java (one class of a multi-release jar);
    # Reflection.java, beside the other variant, calls it, and related of the java16 file
    # said 'dependents: none'
    support = (
        "package org.shop;\n\nfinal class Support {\n    static int invoke() { return 1; }\n}\n"
    )
    repo.add(
        {
            "src/main/java/org/shop/Support.java": support,
            "src/main/java16/org/shop/Support.java": support,
            "src/main/java/org/shop/Caller.java": (
                "package org.shop;\n\nclass Caller {\n    int m() { return Support.invoke(); }\n}\n"
            ),
        }
    )
    for variant in ("src/main/java/org/shop/Support.java", "src/main/java16/org/shop/Support.java"):
        found = {path for path, _symbol in repo.dependents(variant)}
        assert "src/main/java/org/shop/Caller.java" in found, variant


def test_java_calls_a_kotlin_top_level_function_only_through_its_file_class(repo: Repo) -> None:
    # retrofit-mock: BehaviorDelegateTest.java, MockRetrofitTest.java and
    # NetworkBehaviorTest.java (package retrofit2.mock) call MockRetrofit's and
    # NetworkBehavior's own `create`, and were dependents of KotlinExtensions.kt's
    # `MockRetrofit.create()` extension: Java names that only as KotlinExtensionsKt.create
    repo.add(
        {
            "src/main/java/org/shop/Extensions.kt": EXTENSIONS_KT,
            "src/main/java/org/shop/Store.java": (
                "package org.shop;\n\npublic class Store {\n"
                "    public Store create() { return this; }\n}\n"
            ),
            "src/main/java/org/shop/SamePackage.java": (
                "package org.shop;\n\nclass SamePackage {\n    void m(Store s) { s.create(); }\n}\n"
            ),
            "src/main/java/org/shop/Caller.java": (
                "package org.shop;\n\nclass Caller {\n"
                "    int m() { return Extensions.create(); }\n}\n"
            ),
            # the file's class named by @file:JvmName, not by the file
            "src/main/java/org/shop/Util.kt": (
                '@file:JvmName("Helpers")\n\npackage org.shop\n\nfun twice(x: Int): Int = 2 * x\n'
            ),
            "src/main/java/org/shop/HelperUser.java": (
                "package org.shop;\n\nclass HelperUser {\n"
                "    int m() { return Helpers.twice(2); }\n}\n"
            ),
        }
    )
    found = {path for path, _symbol in repo.dependents("src/main/java/org/shop/Extensions.kt")}
    assert found == {"src/main/java/org/shop/Caller.java"}
    found = {path for path, _symbol in repo.dependents("src/main/java/org/shop/Util.kt")}
    assert found == {"src/main/java/org/shop/HelperUser.java"}
