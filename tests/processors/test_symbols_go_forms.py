"""Go forms a QA pass over logrus, viper and fiber found extracted wrong, each pinned by a
small inline source and asserted by what was wrong:

- a const spec naming several constants (`const X, Y = 1, 2`, `C, D` in a group) declared
  only its first name (var specs declared each).
"""

from __future__ import annotations

from tests.processors.test_symbols_qa_graph import symbols

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

