"""Go forms a QA pass over logrus, viper and fiber found extracted wrong, each pinned by a
small inline source and asserted by what was wrong:

- a const spec naming several constants (`const X, Y = 1, 2`, `C, D` in a group) declared
  only its first name (var specs declared each);
- a call of a generic function of the same package with an explicit type argument and
  several arguments (`_ = Query[int](c, "page")`, `valueFromContext[*PageInfo](c, key)`),
  which the grammar reads as an index expression called, recorded no reference, so the
  function's file had no such caller as a dependent (`pkg.F[T](...)` was read as a value
  through the import, and a one-argument call as a generic type's conversion).
"""

from __future__ import annotations

from tests.processors.test_symbols_qa_graph import references, symbols

CONSTS_GO = """package p

const X, Y = 1, 2

const (
	A = iota
	B
	C, D
	E, F, G string = "a", "b", H
)
"""


def test_every_name_of_a_const_spec_is_declared() -> None:
    declared = [(s.fq_name, s.start_line) for s in symbols("p.go", CONSTS_GO)]
    assert declared == [
        ("p.X", 3),
        ("p.Y", 3),
        ("p.A", 6),
        ("p.B", 7),
        ("p.C", 8),
        ("p.D", 8),
        ("p.E", 9),
        ("p.F", 9),
        ("p.G", 9),
    ]  # not `H`, a value


GENERIC_CALLS_GO = """package fiber

func Query[V any](c Ctx, key string) V { var v V; return v }

func handler(c Ctx) *PageInfo {
	_ = Query[int](c, "page")
	return valueFromContext[*PageInfo](c, pageInfoKey)
}
"""


def test_a_generic_call_with_an_explicit_type_argument_is_a_reference() -> None:
    refs = references("helpers.go", GENERIC_CALLS_GO)
    assert ("fiber.handler", "Query", None) in refs
    assert ("fiber.handler", "valueFromContext", None) in refs
