"""A Java varargs parameter declared `final` is named by its type in its method's overload
name (processors/symbols/signatures._param_type_list): `forAll(IOConsumer<T>,T...)`, not
`forAll(IOConsumer<T>,final...)`, which named the modifier and read as no type at all (QA
on apache/commons-io's IOConsumer.java outline)."""

from __future__ import annotations

from processors.symbols.processor import symbols_of
from tests.processors.test_symbols import upsert

IO_CONSUMER = """package org.apache.commons.io.function;

public interface IOConsumer<T> {
    @SafeVarargs
    static <T> void forAll(final IOConsumer<T> action, final T... array) throws IOException {
    }
    static <T> void forAll(final IOConsumer<T> action, final Iterable<T> iterable) {
    }
    static void each(@Nonnull final String... names) {
    }
    static void each(final int... numbers) {
    }
}
"""


def test_a_final_varargs_parameter_is_named_by_its_type() -> None:
    path = "src/main/java/org/apache/commons/io/function/IOConsumer.java"
    records = symbols_of(upsert(path, IO_CONSUMER))
    assert records is not None
    names = [s.fq_name for s in records[0].symbols]
    assert names == [
        "org.apache.commons.io.function.IOConsumer",
        "org.apache.commons.io.function.IOConsumer.forAll(IOConsumer<T>,T...)",
        "org.apache.commons.io.function.IOConsumer.forAll(IOConsumer<T>,Iterable<T>)",
        "org.apache.commons.io.function.IOConsumer.each(String...)",
        "org.apache.commons.io.function.IOConsumer.each(int...)",
    ], names
