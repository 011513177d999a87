"""The dependents resolver's table of language families (query_api/symbols/families.py):
the families with import rules of their own get their object, every other family the
generic rule, and a family's package-is-a-directory rule comes from the table, not from
branches on language names."""

from __future__ import annotations

from pathlib import Path

from query_api.symbols.dependents import DependentsResolver
from query_api.symbols.families import FamilyRules, language_family
from query_api.symbols.go_family import GoFamily
from query_api.symbols.js_family import JsFamily
from query_api.symbols.jvm_family import JvmFamily
from query_api.symbols.python_modules import PythonModules
from query_api.symbols.reference_scope import ReferenceScope
from query_api.symbols.rust_family import RustFamily
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from streams.stores.views.symbols import ReferenceRow, SymbolRow, SymbolViews


def test_each_family_with_rules_of_its_own_has_its_object(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        rules = DependentsResolver(SymbolViews(store)).rules_for_answer("r")
    assert isinstance(rules["js"], JsFamily)
    assert isinstance(rules["python"], PythonModules)
    assert isinstance(rules["rust"], RustFamily)
    assert isinstance(rules["go"], GoFamily)
    assert isinstance(rules["jvm"], JvmFamily)
    assert {name: r.family for name, r in rules.items()} == {
        "js": "js",
        "rust": "rust",
        "python": "python",
        "go": "go",
        "jvm": "jvm",
    }


def test_other_families_get_the_generic_rule(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        views = SymbolViews(store)
        scope = ReferenceScope(views, "r", DependentsResolver(views).rules_for_answer("r"))
    java = scope.rules_of("src/main/java/shop/Order.java")
    go = scope.rules_of("pkg/orders/order.go")
    c = scope.rules_of("src/orders.c")
    assert java is scope.rules["jvm"] and java.family == "jvm" and java.package_is_directory
    assert go is scope.rules["go"] and go.package_is_directory
    assert type(c) is FamilyRules and not c.package_is_directory
    assert scope.rules_of("src/app.tsx") is scope.rules["js"]
    assert language_family("lib/app.mjs") == "js"


def test_the_generic_rule_matches_a_qualified_name_in_its_family_only() -> None:
    rules = FamilyRules("jvm")
    ref = ReferenceRow("src/Use.java", "Use", "OrderService", "com.shop.OrderService")
    java = SymbolRow(
        "r", "src/Order.java", "com.shop.OrderService", "OrderService", "Type", 1, 1, "", ""
    )
    ts = SymbolRow(
        "r", "web/order.ts", "com.shop.OrderService", "OrderService", "Type", 1, 1, "", ""
    )
    assert rules.means(ref, [java]) is True
    assert rules.means(ref, [ts]) is False
    unqualified = ReferenceRow("src/Use.java", "Use", "OrderService", None)
    assert rules.means(unqualified, [java]) is None  # left to the simple name
