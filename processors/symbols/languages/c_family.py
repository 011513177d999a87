"""C and C++: file-level declarations (prototypes, global variables) are written inside
include guards, `#if`/`#else` branches and `extern "C" { }` blocks as often as at the top, and
a query cannot say "no function body above this". Their patterns carry `@top`; a match is kept
when nothing but the file and such blocks (and, in C++, namespaces and templates) contain it:
a function's locals, in a `compound_statement`, are not declarations an agent looks up."""

from __future__ import annotations

import re
from dataclasses import replace

from tree_sitter import Node

from processors.symbols.declaration import Slicer
from processors.symbols.keywords import KEYWORDS
from processors.symbols.languages.base import LanguageRules

# what may stand between a file-level declaration and the file (the root has no parent)
_FILE_LEVEL_CONTAINERS = frozenset(
    {
        "translation_unit",
        "preproc_ifdef",
        "preproc_if",
        "preproc_else",
        "preproc_elif",
        "preproc_elifdef",
        "linkage_specification",  # extern "C" { ... }
        "declaration_list",  # the body of extern "C" or of a C++ namespace
        "namespace_definition",
        "template_declaration",
    }
)


def at_file_level(node: Node) -> bool:
    """Whether only the file, preprocessor conditionals, linkage blocks, namespaces and
    templates contain `node` (a local's parent, a function body, fails at the first step)."""
    parent = node.parent
    while parent is not None:
        if parent.type not in _FILE_LEVEL_CONTAINERS:
            return False
        parent = parent.parent
    return True


# a line holding nothing but an upper-case name, at the start of the line: a macro that opens
# or closes a scope (`FMT_BEGIN_NAMESPACE`, `G_BEGIN_DECLS`), which tree-sitter cannot expand
_MACRO_LINE = re.compile(rb"^[A-Z_][A-Z0-9_]*[ \t]*(?=\r?$)", re.M)


# an attribute macro written before a declaration or a class's name (`FMT_CONSTEXPR
# basic_scan_arg(...) : type_(x) {}`, `class FMT_API file {`): unexpanded, it made the
# constructor's member initializers methods and lost the class
_ATTRIBUTE_MACRO = re.compile(
    rb"\b[A-Z][A-Z0-9_]*_(?:API|EXPORT|CONSTEXPR|CONSTEXPR20|CONSTEVAL|INLINE|NOINLINE"
    rb"|NODISCARD|DEPRECATED|NORETURN)_?\b(?![ \t]*\()"
)
# `if FMT_CONSTEXPR20 (cond)`: `if constexpr` spelled by a macro, which tree-sitter read as
# a call and lost the rest of the class (args.h's `clear`)
_IF_CONSTEXPR_MACRO = re.compile(rb"(?<=\bif )[A-Z][A-Z0-9_]*_CONSTEXPR[A-Z0-9_]*\b")
# a macro call alone on its line (`FMT_PRAGMA_CLANG(diagnostic error "-W...")`, no `;` and
# no body after it): unexpanded, the declarations after it became an ERROR
_MACRO_CALL_LINE = re.compile(
    rb"^[ \t]*[A-Z_][A-Z0-9_]*\([^\n;{}]*\)[ \t]*(?=\r?\n(?![ \t]*(?:[{:]|->)))", re.M
)


# exception macros (`FMT_TRY {...} FMT_CATCH(...) {}`, nlohmann's `JSON_TRY`): read as a
# declaration and a function named FMT_CATCH; written as the `try`/`catch` they stand for
_TRY_CATCH = re.compile(rb"\b[A-Z][A-Z0-9]*_(TRY|CATCH)\b(?=[ \t]*[({])")


def _try_or_catch(found: re.Match[bytes]) -> bytes:
    word = found.group(1).lower()
    return word + b" " * (found.end() - found.start() - len(word))


def _spaces(found: re.Match[bytes]) -> bytes:
    return b" " * (found.end() - found.start())


def _spaces_outside_directives(found: re.Match[bytes]) -> bytes:
    """Spaces, unless the macro is on a preprocessor line (`#if FMT_USE_CONSTEXPR`, whose
    condition written over left an `#if` without one: an ERROR to the `#endif`)."""
    src = found.string
    line_start = src.rfind(b"\n", 0, found.start()) + 1
    if src[line_start : found.start()].lstrip().startswith(b"#"):
        return found.group(0)
    return _spaces(found)


def blank_macro_lines(src: bytes) -> bytes:
    """`src` with each macro line and attribute macro written over with spaces: fmt's
    `FMT_BEGIN_NAMESPACE` made the rest of a header one ERROR node. The same length, so
    every offset and line of the tree stays that of the file. (An enumerator written alone
    at the start of a line would be lost with it; enumerators are indented in practice.)"""
    if _MACRO_LINE.search(src):
        src = _MACRO_LINE.sub(_spaces, src)
    if _ATTRIBUTE_MACRO.search(src):
        src = _ATTRIBUTE_MACRO.sub(_spaces_outside_directives, src)
    if b"_CONSTEXPR" in src and _IF_CONSTEXPR_MACRO.search(src):
        src = _IF_CONSTEXPR_MACRO.sub(_spaces_outside_directives, src)
    if b"_TRY" in src and _TRY_CATCH.search(src):
        src = _TRY_CATCH.sub(_try_or_catch, src)
    if _MACRO_CALL_LINE.search(src):
        src = _MACRO_CALL_LINE.sub(_spaces, src)
    return src


# C++ only. A module declaration (`export module fmt;`, `module;`, `import std;`), which
# tree-sitter-cpp predates: read as a variable named `module`
_MODULE_LINE = re.compile(
    rb"^[ \t]*(?:export[ \t]+)?(?:module|import)\b[ \t]*[\w.:<>\"]*[ \t]*;", re.M
)
# ... and what a module exports (`export namespace fmt {`, `export template <...>`): the
# declaration without its `export`
_EXPORT = re.compile(rb"^[ \t]*export(?=[ \t]+[A-Za-z_{])", re.M)
# a gtest test's head (`TEST(ostream_test, enum) {`): a keyword among its names made the
# test a call and lost its body; the keyword is written over with `_`s (the name is read
# from the file as written)
_TEST_HEAD = re.compile(
    rb"^[ \t]*(?:TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P|GTEST_TEST)[ \t]*"
    rb"\([ \t]*(\w+)[ \t]*,[ \t]*(\w+)[ \t]*\)",
    re.M,
)
_CPP_KEYWORDS = frozenset(word.encode() for word in KEYWORDS["cpp"])
# `throw` as a macro's first argument (`EXPECT_THROW_MSG(throw runtime_error(""), ...)`)
# made the rest of the test's body an ERROR, and the tests after it with it
_THROW_ARGUMENT = re.compile(rb"\([ \t]*throw\b")  # a `(` first: a fast scan
_MACRO_NAME_BEFORE = re.compile(rb"\b[A-Z][A-Z0-9_]{2,}$")
# gmock's return type in parentheses (`MOCK_METHOD((std::pair<int, bool>), get, (int))`),
# which a comma inside needs: tree-sitter read two fields; its parentheses are written over
_MOCK_PARENTHESISED = re.compile(rb"\bMOCK_METHOD[ \t]*\([ \t]*\(")


def _test_head(found: re.Match[bytes]) -> bytes:
    head = found.group(0)
    for group in (1, 2):
        word = found.group(group)
        if word in _CPP_KEYWORDS:
            at = found.start(group) - found.start()
            head = head[:at] + b"_" * len(word) + head[at + len(word) :]
    return head


def _throw_in_macro(found: re.Match[bytes]) -> bytes:
    """`throw` written over when the `(` before it opens an upper-case macro's arguments."""
    before = found.string[max(0, found.start() - 64) : found.start()]
    if not _MACRO_NAME_BEFORE.search(before):
        return found.group(0)
    return found.group(0)[:-5] + b"     "


def _unparenthesised_return_types(src: bytes) -> bytes:
    fixed = bytearray(src)
    for found in _MOCK_PARENTHESISED.finditer(src):
        opened = found.end() - 1
        depth = 0
        for i in range(opened, min(len(src), opened + 400)):
            if src[i] == 0x28:  # (
                depth += 1
            elif src[i] == 0x29:  # )
                depth -= 1
                if depth == 0:
                    fixed[opened] = fixed[i] = 0x20
                    break
    return bytes(fixed)


def repaired_cpp(src: bytes) -> bytes:
    """`src` as blank_macro_lines repairs it, and C++'s own constructs tree-sitter-cpp
    misreads written over (above): module declarations, keywords naming a gtest test,
    `throw` as a macro's argument and gmock's parenthesised return types. The same length."""
    src = blank_macro_lines(src)
    if (b"module" in src or b"import " in src) and _MODULE_LINE.search(src):
        src = _MODULE_LINE.sub(_spaces, src)
        src = _EXPORT.sub(_spaces, src)
    if b"TEST" in src and _TEST_HEAD.search(src):
        src = _TEST_HEAD.sub(_test_head, src)
    if b"throw" in src and _THROW_ARGUMENT.search(src):
        src = _THROW_ARGUMENT.sub(_throw_in_macro, src)
    if b"MOCK_METHOD" in src and _MOCK_PARENTHESISED.search(src):
        src = _unparenthesised_return_types(src)
    return src


def not_a_friend(node: Node) -> bool:
    """A prototype in a class that is not a friend's (`friend auto fg(color) -> style;`
    names a function of the namespace, not a member: ctags and clang agree)."""
    parent = node.parent
    return parent is None or parent.type != "friend_declaration"


# gmock's method macros: `MOCK_METHOD(T*, allocate, (size_t))` and the older numbered ones,
# `MOCK_METHOD1(allocate, T*(size_t))`, `MOCK_CONST_METHOD0_T(...)`, `..._WITH_CALLTYPE(c, ...)`
_MOCK_MACRO = re.compile(r"MOCK_(?:CONST_)?METHOD(\d*)(?:_T)?(_WITH_CALLTYPE)?")
_OPENERS, _CLOSERS = "([{", ")]}"


def mocked_method(name: str, node: Node, text: Slicer) -> str | None:
    """The method a gmock macro use declares (`allocate` of `MOCK_METHOD(T*, allocate,
    (size_t));`, which tree-sitter reads as a prototype named MOCK_METHOD): the argument
    that names it, by the macro's argument order; None for any other declaration."""
    if not name.startswith("MOCK_"):
        return None
    macro = _MOCK_MACRO.fullmatch(name)
    if macro is None:
        return None
    written = text(node.start_byte, node.end_byte)
    opened = written.find("(")
    if opened < 0:
        return None
    index = (0 if macro.group(1) else 1) + (1 if macro.group(2) else 0)
    args = _top_level_arguments(written[opened + 1 :])
    method = args[index].strip() if index < len(args) else ""
    return method if method.isidentifier() else None


def _top_level_arguments(after_paren: str) -> list[str]:
    """A macro call's arguments split at the commas outside brackets, up to its `)`."""
    args, depth, start = [], 0, 0
    for i, char in enumerate(after_paren):
        if char in _OPENERS:
            depth += 1
        elif char in _CLOSERS:
            if depth == 0:
                args.append(after_paren[start:i])
                return args
            depth -= 1
        elif char == "," and depth == 0:
            args.append(after_paren[start:i])
            start = i + 1
    return args


_C_FAMILY = LanguageRules(
    at_file_level=at_file_level,
    repair_source=blank_macro_lines,
    declares=not_a_friend,
    macro_declared_name=mocked_method,
)
RULES = {"c": _C_FAMILY, "cpp": replace(_C_FAMILY, repair_source=repaired_cpp)}
