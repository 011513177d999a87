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


# a package-level var or const read bare in another file of its package (logrus's
# text_formatter.go reads FieldKeyMsg, declared in formatter.go): no call, no type, so no
# reference was recorded and the declaring file had no such dependent
READS_GO = """package p

func timeout() int { return DefaultTimeout }

func scaled(n int) int {
	limit := MaxRetries * n
	return limit + Offset
}

var derived = DefaultTimeout + Base

func (c *Client) value() *Client { return c }

var handlers = map[Level]func(){PanicLevel: onPanic}

func literal() T { return T{Name: Label} }
"""


def test_a_package_level_name_read_bare_is_a_reference() -> None:
    refs = references("b.go", READS_GO)
    assert ("p.timeout", "DefaultTimeout", None) in refs
    assert {("p.scaled", "MaxRetries", None), ("p.scaled", "Offset", None)} <= refs
    assert {("p.derived", "DefaultTimeout", None), ("p.derived", "Base", None)} <= refs
    # a map literal's key is a value; a function passed along is read as one
    assert {("p.handlers", "PanicLevel", None), ("p.handlers", "onPanic", None)} <= refs
    assert ("p.literal", "Label", None) in refs
    names = {name for _owner, name, _qualified in refs}
    # a struct literal's key is a field; the receiver and `limit` are locals; `n` a parameter
    assert not {"Name", "c", "limit", "n"} & names


SHADOWS_GO = """package p

import "fmt"

func param(DefaultTimeout int) int { return DefaultTimeout }

func short() int {
	Offset := 1
	return Offset
}

func declared() int {
	var Base = 2
	const Limit = 3
	return Base + Limit
}

func ranged(xs []int) (total int) {
	for MaxRetries, v := range xs {
		total += MaxRetries + v
	}
	return total
}

func switched(x any) any {
	switch Kind := x.(type) {
	default:
		return Kind
	}
}

func closure() func(int) int { return func(Level int) int { return Level } }

func printed() { fmt.Println(nil, true, iota) }
"""


def test_a_local_binding_is_no_reference_to_the_package_level_name() -> None:
    refs = references("b.go", SHADOWS_GO)
    names = {name for _owner, name, _qualified in refs}
    assert (
        not {
            "DefaultTimeout",
            "Offset",
            "Base",
            "Limit",
            "MaxRetries",
            "v",
            "total",
            "xs",
            "Kind",
            "x",
            "Level",
        }
        & names
    ), refs
    # an import's name and Go's predeclared constants are no package-level declarations
    assert not {"fmt", "nil", "true", "iota"} & names


# logrus's level.go: a closure in a package-level var's value binds its own locals
CLOSURE_IN_A_VAR_GO = """package p

var levelPrefixOnce = sync.OnceValues(func() int {
	var maxLevel Level
	for _, lvl := range AllLevels {
		maxLevel = lvl
	}
	return maxLevel + Offset
})

var (
	A = 1
	B = A + 1
)
"""


def test_a_closure_in_a_package_level_var_binds_its_own_locals() -> None:
    refs = references("level.go", CLOSURE_IN_A_VAR_GO)
    names = {name for _owner, name, _qualified in refs}
    assert {"AllLevels", "Offset"} <= names and not {"maxLevel", "lvl"} & names
    assert ("p.B", "A", None) in refs  # a grouped var's earlier name, read by a later one
