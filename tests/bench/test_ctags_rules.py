"""The symbol benchmark's rules for ctags' tags (tests/bench/symbols_quality/ctags_rules.py):
locals at any depth, and which C++ prototypes a file also defines."""

from __future__ import annotations

from tests.bench.symbols_quality.compare import compare_file
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


def _symbol(fq: str, kind: str, start: int, end: int) -> dict[str, str | int]:
    return {"fq_name": fq, "name": fq.rpartition(".")[2], "kind": kind, "signature": ""} | {
        "start_line": start,
        "end_line": end,
    }


def test_the_members_of_a_c_fields_inline_type_are_compared() -> None:
    # struct jv { union { int i; double d; } u; };  ctags: members i and d of the union
    ours = [
        _symbol("jv", "Type", 1, 3),
        _symbol("jv.u", "Field", 2, 2),
        _symbol("jv.u.i", "Field", 2, 2),
        _symbol("jv.u.d", "Field", 2, 2),
    ]
    reference = [
        Tag(n, line, "field" if n != "jv" else "type", "member")
        for n, line in (("jv", 1), ("u", 2), ("i", 2), ("d", 2))
    ]
    assert compare_file("f", "c", ours, reference).counts["field"].matched == 3
    # an object literal's keys stay a variable's contents in JavaScript: not compared
    assert compare_file("f", "javascript", ours, reference).counts["field"].ours == 1
