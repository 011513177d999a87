"""C and C++: file-level declarations (prototypes, global variables) are written inside
include guards, `#if`/`#else` branches and `extern "C" { }` blocks as often as at the top, and
a query cannot say "no function body above this". Their patterns carry `@top`; a match is kept
when nothing but the file and such blocks (and, in C++, namespaces and templates) contain it:
a function's locals, in a `compound_statement`, are not declarations an agent looks up."""

from __future__ import annotations

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


_C_FAMILY = LanguageRules(at_file_level=at_file_level)
RULES = {"c": _C_FAMILY, "cpp": _C_FAMILY}
