"""A declaration as the extractor holds it between matching and records, and how a captured
name is cleaned into a symbol's name."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

MAX_NAME_CHARS = 200
_SPACE = re.compile(r"\s+")
_TEMPLATE_ARGS = re.compile(r"<[^<>]*>")
_NOT_BETWEEN_WORDS = re.compile(r"(?<!\w) | (?!\w)")


@dataclass(slots=True)
class Declaration:
    """A declaration (or a naming scope, `is_scope`: a Rust `impl`) by its byte span; `fq` is
    filled in by nesting."""

    start: int
    end: int
    kind: str
    name: str
    node: Node
    params: Node | None = None
    parent: str | None = None
    body_start: int | None = None
    is_scope: bool = False
    decl_only: bool = False
    fq: str = ""


def operator_name(text: str) -> str:
    """A C++ operator's name as written once: spaces only between two words (`operator<<`,
    `operator new`, `operator const char*`); a conversion operator's node (`operator bool()
    const`) ends at its parameters."""
    if "(" in text and not text[8:].lstrip().startswith("("):  # not `operator()`
        text = text[: text.index("(")]
    return _NOT_BETWEEN_WORDS.sub("", _SPACE.sub(" ", text.strip()))


def clean_name(text: str, sep: str) -> str:
    if text.isidentifier():  # the common case: nothing to clean
        return text[:MAX_NAME_CHARS]
    if text.startswith("operator"):  # C++ `operator<<`, `operator->`: the brackets are the name
        return operator_name(text)[:MAX_NAME_CHARS]
    # C++ `Box<T>::other` is `Box.other` (not an include's `<stdio.h>`, not `operator<`)
    if "<" in text and text[0] != "<" and "operator" not in text:
        while "<" in text and (cut := _TEMPLATE_ARGS.sub("", text)) != text:
            text = cut
    text = text.strip().strip("\"'`<>;")
    if sep != ".":
        text = text.replace(sep, ".").strip(".")
    if " " in text or "\n" in text or "\t" in text:
        text = _SPACE.sub("", text)
    return text[:MAX_NAME_CHARS]
