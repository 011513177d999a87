"""A Java nested type named through its imported outer class (`new CharSequenceInputStream
.Builder()`, `Map.Entry`) is that class's nested type: the name before the dot is a
`type_identifier` in a `scoped_type_identifier`, which the qualifier lookup skipped, so
`Builder` stayed a bare name, and the dependents resolver could only match it against every
`Builder` of the repository (QA on apache/commons-io's CopyUtilsTest and Tailer.Builder)."""

from __future__ import annotations

from processors.symbols.processor import symbols_of
from tests.processors.test_symbols import upsert

COPY_TEST = """package org.shop;

import org.shop.input.CharStream;

public class CopyTest {
    void copy() { new CharStream.Builder().get(); }
    CharStream.Builder field;
}
"""


def test_a_nested_type_named_through_its_imported_class_is_qualified_by_it() -> None:
    records = symbols_of(upsert("src/test/java/org/shop/CopyTest.java", COPY_TEST))
    assert records is not None
    builders = {
        (owner, qualified) for owner, name, qualified in records[1].references if name == "Builder"
    }
    assert builders == {
        ("org.shop.CopyTest.copy", "org.shop.input.CharStream.Builder"),
        ("org.shop.CopyTest.field", "org.shop.input.CharStream.Builder"),
    }


RESULT = """package org.junit.rules;

import org.hamcrest.Matcher;

public class ExpectedException {
    void handle(org.junit.runner.Description description) {
        new org.junit.internal.AssumptionViolatedException("x");
    }
    Matcher.Inner<String> inner;
}
"""


def test_a_fully_qualified_type_is_qualified_by_its_package() -> None:
    # junit4's ExpectedException takes an `org.junit.runner.Description` it does not import;
    # the bare `Description` could only be matched against every type of that name
    records = symbols_of(upsert("src/main/java/org/junit/rules/ExpectedException.java", RESULT))
    assert records is not None
    qualified = {name: q for _owner, name, q in records[1].references if name[0].isupper()}
    assert qualified["Description"] == "org.junit.runner.Description"
    assert qualified["AssumptionViolatedException"] == (
        "org.junit.internal.AssumptionViolatedException"
    )
    assert qualified["Inner"] == "org.hamcrest.Matcher.Inner"  # through the import
