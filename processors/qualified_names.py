"""The qualified names a request writes (`JsonParser.getNumberType()`, `WalkBuilder::empty`,
`click.shell_completion.ZshComplete`), and which declarations they name.

A qualified name says which of many same-named declarations is meant: jackson-core declares
`getNumberType` in six parsers, but `JsonParser.getNumberType` is one of them. Keyword search
ranks the file declaring that one above the files declaring the others
(streams/stores/views/search.py), and a hit's lines are that declaration's
(query_api/retrieval/hit_details.py). A file's text never holds the dotted name whole, so
neither BM25 nor a phrase read can tell them apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

MAX_QUALIFIED_NAMES = 8  # names read per request; a pasted paragraph may hold many
MIN_SHARED_PARTS = 2  # `Name` alone is the simple name, which says nothing more
# an identifier and its qualifiers; a part after a dot may be a JS/TS private member
# (`Ky.#retryFromError`, as outline names it), whose `#` would otherwise cut the name in two.
# A name starts a run of word characters (or follows its leading `$`s) and its parts are
# taken whole (possessive): tried from every place inside a long word, each start read on to
# the word's end, quadratic in a caller's long words
_NAME_START = r"(?:(?<![\w$])|(?<=(?<![\w$])\$))"
_QUALIFIED = re.compile(_NAME_START + r"[^\W\d][\w$]*+(?:(?:\.#?|::?)[^\W\d][\w$]*+)+")
_SEPARATORS = re.compile(r"[.:]+")
_SIGNATURE = re.compile(r"\(.*\)$")  # Java's fq names end with their parameter types


# a Go method's receiver as stack traces and `go doc` write it: `pflag.(*FlagSet).Set`
_GO_RECEIVER = re.compile(r"(?<![\w$])\(\*?([^\W\d][\w$]*)\)\.(?=[^\W\d])")


def go_receivers(text: str) -> str:
    """`text` with each Go receiver in parentheses written as its type: `(*FlagSet).Parse`
    -> `FlagSet.Parse`, the qualified name the views store."""
    return _GO_RECEIVER.sub(r"\1.", text)


# a JavaScript prototype path as written of a method: `Context.prototype.assert`
_PROTOTYPE = re.compile(r"(?<![\w$#])([^\W\d][\w$]*)\.prototype\.(?=#?[^\W\d])")


def prototype_members(text: str) -> str:
    """`text` with each JavaScript prototype path written as its class's member:
    `Context.prototype.assert()` -> `Context.assert()`, the qualified name the views store.
    QA on oakserver/oak: `where is Context.prototype.assert defined` noted that no hit
    declared `assert`, over context.ts's `Context.assert`."""
    return _PROTOTYPE.sub(r"\1.", text)


def qualified_names(query: str) -> list[tuple[str, ...]]:
    """Each qualified name the request writes, as its parts in the request's spelling, first
    seen first, at most MAX_QUALIFIED_NAMES. QA on spf13/pflag: `pflag.(*FlagSet).Set`, a
    stack frame's method, named no declaration (go_receivers)."""
    out: dict[tuple[str, ...], None] = {}
    for raw in _QUALIFIED.findall(go_receivers(prototype_members(query))):
        parts = tuple(part for part in _SEPARATORS.split(raw) if part)
        if len(parts) >= MIN_SHARED_PARTS:
            out.setdefault(parts, None)
        if len(out) == MAX_QUALIFIED_NAMES:
            break
    return list(out)


def shared_trailing_parts(fq_name: str, parts: Sequence[str], exact_case: bool = False) -> int:
    """How many trailing parts a declaration's qualified name (`::` read as `.`, a Java
    signature left out) and a written one agree on, casefolded (or as spelled, with
    `exact_case`): all those of the shorter one, or 0 when they differ there or the shorter
    has fewer than MIN_SHARED_PARTS."""
    fold = (lambda text: text) if exact_case else str.casefold
    names = fold(_SIGNATURE.sub("", fq_name).replace("::", ".")).split(".")
    shared = min(len(parts), len(names))
    if shared < MIN_SHARED_PARTS:
        return 0
    wanted = [fold(part) for part in parts[-shared:]]
    return shared if names[-shared:] == wanted else 0


def names_declaration(fq_name: str, written: Sequence[Sequence[str]]) -> bool:
    """Whether one of the written qualified names names the declaration `fq_name`."""
    return any(shared_trailing_parts(fq_name, parts) for parts in written)


_CALL = re.compile(_NAME_START + r"([^\W\d][\w$]*+)\(([^()\n]{0,200})\)")  # `name(Type a)`
_ANNOTATION = re.compile(r"@[\w$.]+(?:\([^)]*\))?\s*")
_MODIFIER = re.compile(r"\bfinal\s+")
_PACKAGE = re.compile(r"\b[a-z_$][\w$]*\.(?=[\w$])")  # `java.lang.` of `java.lang.String`


def written_parameters(query: str) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The parameter types a request writes after a name (`getOptionValue(Option, String)`),
    by the name's lower-cased spelling: each list as parameter_types reads it. Java's
    overloads share their qualified name; these say which one is meant."""
    out: dict[str, tuple[tuple[str, ...], ...]] = {}
    for name, inside in _CALL.findall(query):
        types = parameter_types(inside, named=True)
        lists = out.setdefault(name.lower(), ())
        if types not in lists:
            out[name.lower()] = (*lists, types)
    return out


def declared_parameters(fq_name: str) -> tuple[str, ...] | None:
    """The parameter types a Java declaration's qualified name ends with
    (`CommandLine.getOptionValue(Option,String)`), read as parameter_types reads them; None
    when it ends with none."""
    found = _SIGNATURE.search(fq_name)
    return None if found is None else parameter_types(found.group()[1:-1], named=False)


def parameter_types(text: str, named: bool) -> tuple[str, ...]:
    """The types of a parameter list's text, lower-cased, without modifiers, annotations,
    packages or spaces, varargs as arrays; with `named`, a parameter's trailing name is left
    out (`Option option` -> `option`)."""
    out: list[str] = []
    for param in _top_level(text, ","):
        param = _MODIFIER.sub("", _ANNOTATION.sub("", param)).strip()
        words = _top_level(param, " ")
        if named and len(words) > 1:
            words = words[:-1]
        joined = "".join("".join(words).split()).replace("...", "[]")
        if joined:
            out.append(_PACKAGE.sub("", joined).lower())
    return tuple(out)


def _top_level(text: str, separator: str) -> list[str]:
    """`text` split at each `separator` outside <>, [] and (), empty parts left out."""
    parts, depth, start = [], 0, 0
    for at, char in enumerate(text):
        depth += (char in "<[(") - (char in ">])")
        if char == separator and depth == 0:
            parts.append(text[start:at])
            start = at + 1
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]
