"""The qualified names and written parameters of a request are read from the start of each
word alone (processors/qualified_names.py): the same names as before, and a hostile run of
word characters is read once, not once from each of its places."""

from __future__ import annotations

import re

from processors.qualified_names import (
    go_receivers,
    prototype_members,
    qualified_names,
    written_parameters,
)

# the patterns as they were, read from every place: what the names must still be
_OLD_QUALIFIED = re.compile(r"[^\W\d][\w$]*(?:(?:\.#?|::?)[^\W\d][\w$]*)+")
_OLD_CALL = re.compile(r"([^\W\d][\w$]*)\(([^()\n]{0,200})\)")
CASES = [
    "JsonParser.getNumberType()",
    "$foo.bar x",
    "a1b.c d",
    "Ky.#retryFromError",
    "WalkBuilder::empty and click.shell_completion.ZshComplete",
    "foo_bar.baz.qux(1) x.y z::w a:b",
    "é.ü $.ajax a$b.c pkg.(*T).M v1.2.3 foo..bar",
    "getOptionValue(Option, String) and $x(int a) call(a, b(c))",
]


def test_the_names_read_are_those_read_from_every_place() -> None:
    for text in CASES:
        written = _OLD_QUALIFIED.findall(go_receivers(prototype_members(text)))
        old = list(dict.fromkeys(tuple(re.split(r"[.:]+", n)) for n in written))
        assert qualified_names(text) == [tuple(p for p in n if p) for n in old][:8], text
        calls = {name.lower() for name, _ in _OLD_CALL.findall(text)}
        assert set(written_parameters(text)) == calls, text


def test_a_name_after_digits_is_no_name() -> None:
    """`9abc.def` is no identifier in any language; read from inside, it was `abc.def`."""
    assert qualified_names("9abc.def") == []


def test_a_hostile_run_of_word_characters_names_nothing() -> None:
    for run in ("a" * 4096, "a_" * 2048, "a" * 4095 + ".", "a1" * 2048, "$a" * 2048):
        assert qualified_names(run) == []
        assert written_parameters(run) == {}
