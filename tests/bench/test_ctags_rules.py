"""The symbol benchmark's rules for ctags' tags (tests/bench/symbols_quality/ctags_rules.py):
locals at any depth, and which C++ prototypes a file also defines."""

from __future__ import annotations

from tests.bench.symbols_quality.ctags_rules import (
    defined_prototypes_dropped,
    local_scopes,
    parameter_types,
)
from tests.bench.symbols_quality.references import CTAGS_KINDS, Tag


def _tag(name: str, kind: str, scope: str = "", scope_kind: str = "") -> dict[str, str]:
    tag = {"path": "a", "name": name, "kind": kind}
    if scope:
        tag |= {"scope": scope, "scopeKind": scope_kind}
    return tag


def test_the_members_of_an_anonymous_class_in_a_method_are_local() -> None:
    method = "Slim\\MiddlewareDispatcher::addMiddleware"
    anonymous = f"{method}::AnonymousClass1"
    tags = [
        _tag("MiddlewareDispatcher", "class", "Slim", "namespace"),
        _tag("addMiddleware", "function", "Slim\\MiddlewareDispatcher", "class"),
        _tag("AnonymousClass1", "class", method, "function"),
        _tag("handle", "function", anonymous, "class"),
    ]
    local = local_scopes(tags, CTAGS_KINDS["PHP"])
    assert ("a", anonymous, "class") in local
    assert ("a", method, "function") in local
    assert ("a", "Slim\\MiddlewareDispatcher", "class") not in local


def test_an_interface_is_not_taken_for_the_constant_of_its_name() -> None:
    tags = [
        _tag("ZodError", "interface"),
        _tag("ZodError", "constant"),
        _tag("format", "method", "ZodError", "interface"),
    ]
    assert local_scopes(tags, CTAGS_KINDS["TypeScript"]) == set()


def test_parameter_types_leave_out_names_and_defaults() -> None:
    assert parameter_types("(const char* s, int n = 0) const") == "constchar*,int"
    assert parameter_types("(unsigned long)") == "unsignedlong"
    assert parameter_types("(std::map<int, T> m, T&& x)") == "std::map<int,T>,T&&"
    assert parameter_types("(void)") == parameter_types("()") == ""


def test_a_deleted_overload_is_no_prototype_of_the_definition() -> None:
    defined = Tag("file", 10, "function", "function")
    deleted = Tag("file", 12, "function", "prototype")
    same = Tag("file", 14, "function", "prototype")
    heads = [
        (defined, ("file", "file", "int")),
        (deleted, ("file", "file", "constfile&")),
        (same, ("file", "file", "int")),
    ]
    assert defined_prototypes_dropped(heads) == [defined, deleted]
