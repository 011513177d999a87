"""C and C++: file-level declarations (prototypes, global variables) are written inside
include guards, `#if`/`#else` branches and `extern "C" { }` blocks as often as at the top, and
a query cannot say "no function body above this". Their patterns carry `@top`; a match is kept
when nothing but the file and such blocks (and, in C++, namespaces and templates) contain it:
a function's locals, in a `compound_statement`, are not declarations an agent looks up."""

from __future__ import annotations

import re

from tree_sitter import Node

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
    rb"|NODISCARD|DEPRECATED|NORETURN)\b(?![ \t]*\()"
)


def _spaces(found: re.Match[bytes]) -> bytes:
    return b" " * (found.end() - found.start())


def blank_macro_lines(src: bytes) -> bytes:
    """`src` with each macro line and attribute macro written over with spaces: fmt's
    `FMT_BEGIN_NAMESPACE` made the rest of a header one ERROR node. The same length, so
    every offset and line of the tree stays that of the file. (An enumerator written alone
    at the start of a line would be lost with it; enumerators are indented in practice.)"""
    if _MACRO_LINE.search(src):
        src = _MACRO_LINE.sub(_spaces, src)
    if _ATTRIBUTE_MACRO.search(src):
        src = _ATTRIBUTE_MACRO.sub(_spaces, src)
    return src


_C_FAMILY = LanguageRules(at_file_level=at_file_level, repair_source=blank_macro_lines)
RULES = {"c": _C_FAMILY, "cpp": _C_FAMILY}
