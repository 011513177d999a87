"""`what implements X` for a Go interface: the types declaring its methods, which need not
name it. QA on rs/zerolog: `what implements LogObjectMarshaler` listed the files taking one
as a parameter (they use the name), not the types declaring `MarshalZerologObject`."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

EVENT = """package log

// LogObjectMarshaler provides a strongly-typed way to log an object.
type LogObjectMarshaler interface {
\tMarshalZerologObject(e *Event)
}

// Closer is a marshaler that must be closed.
type Closer interface {
\tLogObjectMarshaler
\tClose() error
}

func (e *Event) Object(key string, obj LogObjectMarshaler) *Event {
\tobj.MarshalZerologObject(e)
\treturn e
}
"""
USER = """package log

type User struct{ Name string }

func (u User) MarshalZerologObject(e *Event) {
\te.Str("name", u.Name)
}
"""
# a type whose methods lie in two files of its package
PAIR = """package log

type Pair struct{}

func (p *Pair) MarshalZerologObject(e *Event) {}
"""
PAIR_CLOSE = """package log

func (p *Pair) Close() error { return nil }
"""
# uses the interface, implements nothing of it but Close
OTHER = """package log

type Other struct{}

func (o *Other) Close() error { return nil }

// log takes a LogObjectMarshaler, a LogObjectMarshaler only
func log(l LogObjectMarshaler) { l.MarshalZerologObject(nil) }
"""
FILES = {
    "event.go": EVENT,
    "user.go": USER,
    "pair.go": PAIR,
    "pair_close.go": PAIR_CLOSE,
    "other.go": OTHER,
}


async def test_a_go_interface_s_implementers_are_the_types_declaring_its_methods(
    tmp_path: Path,
) -> None:
    async with indexed_app(tmp_path, FILES, "zerolog") as app:
        marshaler, closer = [
            await app.service.search(t.SearchArgs(repoId="zerolog", query=query))
            for query in ("what implements LogObjectMarshaler", "which types implement Closer")
        ]
    first = [h.entry.path or "" for h in marshaler.hits[:2]]
    assert sorted(first) == ["pair.go", "user.go"], marshaler.hits
    assert "implements:LogObjectMarshaler" in marshaler.hits[0].reasons, marshaler.hits[0]
    assert [h.entry.path for h in marshaler.hits].index("other.go") >= 2
    # Closer embeds LogObjectMarshaler: only Pair declares both methods, over two files
    both = [
        h.entry.path or ""
        for h in closer.hits
        if any(r.startswith("implements:") for r in h.reasons)
    ]
    assert sorted(both) == ["pair.go", "pair_close.go"], closer.hits
