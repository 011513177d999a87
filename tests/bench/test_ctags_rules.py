"""The symbol benchmark's rules for ctags' tags (tests/bench/symbols_quality/ctags_rules.py):
locals at any depth, and which C++ prototypes a file also defines."""

from __future__ import annotations

from tests.bench.symbols_quality.compare import compare_file
from tests.bench.symbols_quality.ctags_rules import (
    defined_prototypes_dropped,
    local_scopes,
    parameter_types,
)
from tests.bench.symbols_quality.references import CTAGS_KINDS, Tag, python_ast
from tests.bench.symbols_quality.settled import Settled, by_second_reference


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


def test_a_rust_struct_variants_fields_are_compared_and_a_java_constants_methods_are_not() -> None:
    # enum E { Text { start: usize } }: syn reports `start`; it was taken for the variant's
    # local. enum S { DATA { void read() {} } }: javac and ctags report no `read`
    ours = [
        _symbol("E", "Enum", 1, 3),
        _symbol("E.Text", "Field", 2, 2),
        _symbol("E.Text.start", "Field", 2, 2),
        _symbol("E.Text.read", "Method", 2, 2),
    ]
    counts = compare_file("f", "rust", ours, []).counts
    assert counts["field"].ours == 2 and counts["function"].ours == 0


def test_a_method_named_like_an_overload_is_its_variables_local() -> None:
    # const bench = metabench("x", { "String.slice()"() {} })
    ours = [_symbol("bench", "Field", 1, 3), _symbol("bench.String.slice()", "Method", 2, 2)]
    ours[1]["name"] = "String.slice()"
    assert compare_file("f", "typescript", ours, []).counts["function"].ours == 0


def test_a_difference_the_own_parser_reports_is_ctags_error_and_the_rest_stands() -> None:
    ours = [_symbol("a", "Field", 1, 1), _symbol("b", "Field", 2, 2)]
    ctags = [Tag("c", 3, "field", "variable")]  # b and a are missing: a proven, b not
    own = [Tag("a", 1, "field", "module variable")]
    settled = Settled("ast")
    by_second_reference(
        settled,
        compare_file("f", "python", ours, ctags),
        compare_file("f", "python", ours, own),
        own,
    )
    assert settled.extra["field"] == 1  # a: the own parser reports it
    assert settled.missed["field"] == 1  # c: the own parser reports nothing there


def test_the_ast_reference_reports_a_modules_conditional_names_not_a_loops() -> None:
    body = "if X:\n    A = 1\nelse:\n    A = 2\ntry:\n    import b\nexcept E:\n    b = None\n"
    body += "for i in []:\n    loop = i\ndef f():\n    if X:\n        local = 1\n"
    tags = python_ast(body)
    assert tags is not None
    assert sorted((t.name, t.line) for t in tags if t.kind_class == "field") == [
        ("A", 2),
        ("A", 4),
        ("b", 8),
    ]
