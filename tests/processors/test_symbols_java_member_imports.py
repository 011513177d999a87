"""An import of a nested type or a static member of a class (`import a.RealCart.LineEntry`,
`import static a.RealCart.cartOf`) is a use of that class: the file reaches the name through
it without writing it bare (processors/symbols/languages/jvm.py; QA on google/guice)."""

from __future__ import annotations

from processors.symbols.languages.jvm import enclosing_types
from processors.symbols.processor import symbols_of
from tests.processors.test_symbols import upsert

LEDGER = """package org.shop.use;

import static org.shop.core.RealCart.cartOf;
import org.shop.core.RealCart.LineEntry;
import org.shop.core.Other;

public class Ledger {
    int total(LineEntry entry) { cartOf("a"); return entry.qty; }
}
"""


def test_a_nested_or_static_import_references_its_class_at_file_level() -> None:
    records = symbols_of(upsert("src/org/shop/use/Ledger.java", LEDGER))
    assert records is not None
    references = set(records[1].references)
    assert ("", "RealCart", "org.shop.core.RealCart") in references
    assert ("org.shop.use.Ledger.total", "cartOf", "org.shop.core.RealCart.cartOf") in references
    assert ("org.shop.use.Ledger.total", "LineEntry", "org.shop.core.RealCart.LineEntry") in (
        references
    )
    # a plain import of a class names no class around it: no package becomes a reference
    assert not {r for r in references if r[2] in ("org", "org.shop", "org.shop.core")}


def test_kotlin_imports_of_nested_names_reference_their_class() -> None:
    body = "package app\n\nimport org.shop.core.RealCart.LineEntry\n\nfun f(e: LineEntry) = e\n"
    records = symbols_of(upsert("src/app/F.kt", body))
    assert records is not None
    assert ("", "RealCart", "org.shop.core.RealCart") in set(records[1].references)


def test_the_classes_an_import_passes_through_are_its_capitalised_parts() -> None:
    assert enclosing_types("a.b.Outer.Mid.Inner") == ["a.b.Outer", "a.b.Outer.Mid"]
    assert enclosing_types("a.b.Outer.member") == ["a.b.Outer"]
    assert enclosing_types("a.b.Outer") == []
