"""Kotlin: `import com.shop.Invoice` names one declaration and an import of a nested type
uses its class (as in Java: jvm.py), and two constructs
tree-sitter-kotlin 1.1.0 cannot parse, written over before parsing (the same length, so
every offset and line holds; signatures are read from the file as written):

- an annotation followed, on the next line, by a modifier that is also an identifier
  (`@OptIn(X::class)` then `actual class CRC32`, `@Retention(SOURCE)` then `annotation
  class E`): the grammar reads an annotated expression (`actual`) and the declaration is
  lost, or a class's members become top-level functions. The annotations are written over
  with spaces (the declaration then starts at its modifiers' line);
- a primary constructor's modifiers on the line after the class's name (okio's `class
  ByteString` then `internal actual constructor(`): the rest of the file was one ERROR. The
  line break moves after the first modifier, which the grammar reads.
"""

from __future__ import annotations

import re

from processors.symbols.languages.base import LanguageRules
from processors.symbols.languages.jvm import enclosing_types

# modifiers tree-sitter-kotlin also reads as identifiers after an annotation's line, at the
# top level of a file
_SOFT = rb"(?:actual|expect|annotation|value|data|enum|inner|const|operator|companion)"
_DECLARATION_LINE = re.compile(  # at top level: in a class body the grammar reads them
    rb"^(?:[a-z]+[ \t]+)*?" + _SOFT + rb"[ \t]+(?:[a-z]+[ \t]+)*"
    rb"(?:class|fun|val|var|object|interface|typealias)\b",
    re.M,
)
_CONSTRUCTOR_MODIFIERS = re.compile(
    rb"\b(?:class|object)[ \t]+\w+(?:<[^>\n]*>)?"
    rb"(\r?\n[ \t]*)((?:public|private|internal|protected|actual|expect)[ \t]+)"
    rb"(?=(?:(?:public|private|internal|protected|actual|expect)[ \t]+)*constructor\b)"
)
_SPACE = b" \t\r\n"
_NAME = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:")


def _annotations_before(src: bytes, at: int) -> list[tuple[int, int]]:
    """The spans of the annotations written right before offset `at` (`@Name`, `@a.b.Name`,
    `@get:Name`, each with its parenthesised arguments), the nearest first; none when
    anything else comes first (a comment, code)."""
    spans: list[tuple[int, int]] = []
    i = at
    while True:
        end = i
        while end > 0 and src[end - 1] in _SPACE:
            end -= 1
        j = end
        if j > 0 and src[j - 1] == 0x29:  # `)`: back to its `(`
            depth = 0
            j -= 1
            while j >= 0:
                depth += {0x29: 1, 0x28: -1}.get(src[j], 0)
                if depth == 0:
                    break
                j -= 1
            if j < 0:
                return spans
        k = j
        while k > 0 and src[k - 1] in _NAME:
            k -= 1
        if k == j or k == 0 or src[k - 1] != 0x40:  # no `@Name` there
            return spans
        spans.append((k - 1, end))
        i = k - 1


def _blank(fixed: bytearray, start: int, end: int) -> None:
    for i in range(start, end):
        if fixed[i] not in (0x0A, 0x0D):  # keep the line breaks
            fixed[i] = 0x20


def _moved_line_break(found: re.Match[bytes]) -> bytes:
    """`X\\n  internal actual constructor` -> `X internal\\n  actual constructor`."""
    head = found.group(0)[: found.start(1) - found.start(0)]
    line_break, modifier = found.group(1), found.group(2)
    indent = line_break.lstrip(b"\r\n")
    newline = line_break[: len(line_break) - len(indent)]
    return (
        head + b" " + modifier.rstrip() + newline + indent + modifier[len(modifier.rstrip()) + 1 :]
    )


def repaired(src: bytes) -> bytes:
    """`src` with the two constructs above written over; the same length."""
    fixed: bytearray | None = None
    if b"@" in src:
        for found in _DECLARATION_LINE.finditer(src):
            spans = _annotations_before(src, found.start())
            if spans:
                fixed = fixed if fixed is not None else bytearray(src)
                for start, end in spans:
                    _blank(fixed, start, end)
    out = bytes(fixed) if fixed is not None else src
    if b"constructor" in out and _CONSTRUCTOR_MODIFIERS.search(out):
        out = _CONSTRUCTOR_MODIFIERS.sub(_moved_line_break, out)
    return out


RULES = {
    "kotlin": LanguageRules(
        import_binds_declaration=True, import_owners=enclosing_types, repair_source=repaired
    )
}
