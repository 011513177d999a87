"""Which of a Rust file's declarations are its unit tests: a function with a test attribute
(`#[test]`, `#[tokio::test]`, `#[rstest]`, `#[test_case(..)]`) and whatever a `#[cfg(test)]`
module holds (its helpers, fixtures and test types). Rust keeps them in the file they test,
so related lists them as the file's tests and a bundle sends its code before them."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from streams.stores.views.symbols import SymbolRow

# not `#[cfg(test)]`, which is no test but the module holding them
_TEST_ATTRIBUTE = re.compile(r"#\[(?:\w+::)*(?:test|rstest|test_case)\b")
# `#[cfg(test)]`, `#[cfg(all(test, unix))]`; not `#[cfg(not(test))]`
_TEST_MODULE = re.compile(r"#\[cfg\((?:all\([^\]]*?)?\btest\b")
NAMESPACE_KIND = "Namespace"


def is_test_module_attribute(line: str) -> bool:
    """`#[cfg(test)]` or `#[cfg(all(test, unix))]`, not `#[cfg(not(test))]`."""
    return bool(_TEST_MODULE.search(line)) and "not(test" not in line


def is_test_attribute(line: str) -> bool:
    """`#[test]`, `#[tokio::test]`, `#[rstest]`, `#[test_case(..)]`; not `#[cfg(test)]`."""
    return bool(_TEST_ATTRIBUTE.search(line))


def is_test_function(symbol: SymbolRow) -> bool:
    return symbol.kind in ("Function", "Method") and bool(_TEST_ATTRIBUTE.search(symbol.signature))


def test_modules(declared: Sequence[SymbolRow]) -> list[SymbolRow]:
    """The `#[cfg(test)]` modules among a Rust file's declarations."""
    return [
        s for s in declared if s.kind == NAMESPACE_KIND and is_test_module_attribute(s.signature)
    ]


def is_test_item(symbol: SymbolRow) -> bool:
    """A unit test, or a declaration compiled for tests alone (`#[cfg(test)] fn helper`),
    outside any module: hyperfine keeps its unit tests as `#[test]` functions beside the
    code, `mod tests` nowhere."""
    if symbol.kind == NAMESPACE_KIND:
        return False
    return is_test_function(symbol) or is_test_module_attribute(symbol.signature)


def test_ranges(declared: Sequence[SymbolRow]) -> list[tuple[int, int]]:
    """(first, last) line of a Rust file's test code: its `#[cfg(test)]` modules and its
    tests and test-only declarations outside them (is_test_item); none in another language."""
    if not declared or not declared[0].path.endswith(".rs"):
        return []
    modules = [(s.start_line, s.end_line) for s in test_modules(declared)]
    items = [
        (s.start_line, s.end_line)
        for s in declared
        if is_test_item(s) and not any(a <= s.start_line <= z for a, z in modules)
    ]
    return sorted(modules + items)


def own_test_names(declared: Sequence[SymbolRow]) -> list[str]:
    """A Rust file's unit tests by name, else its test modules: fd's filter/owner.rs makes
    its tests with a macro (`owner_tests! { ... }` in `mod owner_parsing`), which declares
    no test function."""
    found = sorted(s.fq_name for s in declared if is_test_function(s))
    return found or sorted(s.fq_name for s in test_modules(declared))


def unit_tests(declared: Sequence[SymbolRow]) -> list[bool]:
    """Per declaration of a Rust file, whether it is a unit test or inside a test module;
    all False for a file of another language."""
    if not declared or not declared[0].path.endswith(".rs"):
        return [False] * len(declared)
    modules = [(s.start_line, s.end_line) for s in test_modules(declared)]
    return [
        is_test_function(s) or any(a <= s.start_line and s.end_line <= z for a, z in modules)
        for s in declared
    ]


def unit_tests_using(
    by_file: Mapping[str, list[str]],
    symbols_of: Callable[[Sequence[str]], Mapping[str, list[SymbolRow]]],
) -> dict[str, list[str]]:
    """Of `by_file` (a file's dependents: path -> the declarations using it), the Rust unit
    tests, by file: fd's exec/mod.rs tests `generate_custom_path_separator` through
    fmt/mod.rs's template, and related of fmt/mod.rs listed it only among the dependents,
    since a test is found by its test file's path (`symbols_of`: one read for all)."""
    rust = [path for path in by_file if path.endswith(".rs")]
    if not rust:
        return {}
    out: dict[str, list[str]] = {}
    for path, rows in symbols_of(rust).items():
        tests = {s.fq_name for s, is_test in zip(rows, unit_tests(rows), strict=True) if is_test}
        used = [name for name in by_file.get(path, []) if name in tests]
        if used:
            out[path] = used
    return out
