"""A Go method as stack traces and `go doc` write it, `pflag.(*FlagSet).Set` or
`(*FlagSet).getFlagType`, is the qualified name `FlagSet.Set` (processors/qualified_names.py
go_receivers). QA on spf13/pflag: `pflag.(*FlagSet).Set` pointed flag.go's hit at the
`FlagSet` struct (175-210), not at `FlagSet.Set` (543-573), and `what calls
(*FlagSet).getFlagType` found none of its callers."""

from __future__ import annotations

from processors.qualified_names import qualified_names
from query_api.retrieval.hit_details import query_terms
from query_api.retrieval.named_declaration import declaration_named
from query_api.retrieval.users_first import used_name
from streams.stores.views.symbols import SymbolRow

PATH = "flag.go"
ROWS = [
    SymbolRow("r", PATH, fq, fq.rsplit(".", 1)[1], kind, start, end, "d", "")
    for fq, kind, start, end in (
        ("pflag.FlagSet", "Type", 175, 210),
        ("pflag.FlagSet.Set", "Method", 543, 573),
        ("pflag.FlagSet.SetAnnotation", "Method", 578, 589),
        ("pflag.Set", "Function", 603, 605),
    )
]


def test_a_receiver_in_parentheses_is_read_as_the_type_it_names() -> None:
    assert qualified_names("pflag.(*FlagSet).Set") == [("pflag", "FlagSet", "Set")]
    assert qualified_names("panic in (*FlagSet).parseSingleShortArg(...)") == [
        ("FlagSet", "parseSingleShortArg")
    ]
    assert qualified_names("(Value).String") == [("Value", "String")]
    assert qualified_names("f(x).y") == []  # a call's result, no receiver


def test_a_stack_frames_method_names_its_declaration() -> None:
    for query in ("pflag.(*FlagSet).Set", "github.com/spf13/pflag.(*FlagSet).Set(...)"):
        named = declaration_named(ROWS, query_terms(query), PATH, set())
        assert named is not None and named.fq_name == "pflag.FlagSet.Set", (query, named)


def test_the_users_of_a_method_written_with_its_receiver() -> None:
    assert used_name("what calls (*FlagSet).getFlagType") == "FlagSet.getFlagType"
    assert used_name("who calls (*FlagSet).getFlagType?") == "FlagSet.getFlagType"
