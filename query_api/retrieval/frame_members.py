"""A JVM stack trace's frame whose line lies outside the method it names points at that
method, with a note that the trace comes from another version of the file.

A frame names its method and its line (`at org.x.CSVParser$CSVRecordIterator.getNextRecord
(CSVParser.java:290)`), and a trace pasted from an application runs a released jar, whose
lines have moved since: QA on apache/commons-csv pointed CSVParser.java at line 290, the
`@Override` of `remove()`, while getNextRecord is declared at 251. Python frames quote their
code and are moved by it (named_lines.quoted_line); a JVM frame's method says as much.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from streams.stores.views.symbol_spans import Declared

if TYPE_CHECKING:
    from query_api.retrieval.named_lines import Place

MAX_METHOD_LINES = 40  # of a longer method, its head and as many lines after it


def member_line(path: str, place: Place, symbols: Sequence[Declared]) -> tuple[Place, str | None]:
    """`place` moved to the declaration of the method its frame names (Place.member) when its
    line lies in no declaration of that name, and a note saying so; else `place` as it is
    (no member, a constructor, a lambda, an anonymous class's method, or a name the file
    does not declare)."""
    member, owner = place.member, place.owner
    # an anonymous class's method (`Foo$1.run`) may be declared nowhere the symbols list
    if not member.isidentifier() or member.startswith("lambda$") or owner.isdigit():
        return place, None
    named = [s for s in symbols if s.name == member]
    if not named or any(s.start_line <= place.first <= s.end_line for s in named):
        return place, None
    held = [s for s in named if owner and f".{owner}." in f".{s.fq_name.split('(', 1)[0]}"]
    found = min(held or named, key=lambda s: (abs(s.start_line - place.first), s.start_line))
    last = min(found.end_line, found.start_line + MAX_METHOD_LINES - 1)
    note = (
        f"{path} line {place.first} lies outside {member}, which the trace names there; "
        f"{member} is at line {found.start_line} here: the trace comes from another version "
        "of the file"
    )
    return replace(place, first=found.start_line, last=last), note
