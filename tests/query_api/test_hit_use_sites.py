"""A search for the users of a name (`what calls parseArgs`) points each file hit at the lines
using it, not at the name's declaration (query_api/retrieval/use_sites.py). QA on
spf13/pflag: `what calls parseArgs` pointed flag.go at `parseArgs` itself, whose callers
`Parse` and `ParseAll` are in the same file; `callers of FlagSet.VarPF` pointed count.go at
`CountVar`, which holds `FlagSet` and `Var`, not at `CountVarP`, which calls `VarPF`."""

from __future__ import annotations

import re
from pathlib import Path

from query_api.retrieval.hit_details import HitLocator, enrich
from query_api.retrieval.use_sites import at_use_sites, no_use_note, use_lines, uses_located
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.query_api.located import located_hits
from tests.streams.symbol_records import records

FLAG = "\n".join(
    [
        "package pflag",  # 1
        "",
        "// parseArgs parses the arguments of a FlagSet.",  # 3
        "func (f *FlagSet) parseArgs(args []string) error {",  # 4
        "\tfor len(args) > 0 {",  # 5
        "\t\targs = args[1:]",  # 6
        "\t}",  # 7
        "\treturn nil",  # 8
        "}",  # 9
        "",
        "// Parse parses flag definitions; it calls parseArgs.",  # 11
        "func (f *FlagSet) Parse(arguments []string) error {",  # 12
        "\tf.parsed = true",  # 13
        "\terr := f.parseArgs(arguments)",  # 14
        "\treturn err",  # 15
        "}",  # 16
        "",
        "func (f *FlagSet) ParseAll(arguments []string) error {",  # 18
        "\treturn f.parseArgs(arguments)",  # 19
        "}",  # 20
        "",
        "// VarPF is like VarP, but returns the flag created.",  # 22
        "func (f *FlagSet) VarPF(value Value, name, shorthand, usage string) *Flag {",  # 23
        "\treturn nil",  # 24
        "}",  # 25
        "",
        "// ParseAll parses the command line's flags.",  # 27
        "func ParseAll(arguments []string) error {",  # 28
        "\treturn CommandLine.ParseAll(arguments)",  # 29
        "}",  # 30
        "",
    ]
)
COUNT = "\n".join(
    [
        "package pflag",  # 1
        "",
        "// CountVar defines a count flag of a FlagSet.",  # 3
        "func (f *FlagSet) CountVar(p *int, name string, usage string) {",  # 4
        '\tf.CountVarP(p, name, "", usage)',  # 5
        "}",  # 6
        "",
        "// CountVarP is like CountVar, but takes a shorthand.",  # 8
        "func (f *FlagSet) CountVarP(p *int, name, shorthand string, usage string) {",  # 9
        "\tflag := f.VarPF(newCountValue(0, p), name, shorthand, usage)",  # 10
        '\tflag.NoOptDefVal = "+1"',  # 11
        "}",  # 12
        "",
    ]
)
FILES = {"flag.go": FLAG, "count.go": COUNT}


def _hits(tmp_path: Path, query: str) -> dict[str, t.SearchHit]:
    return {hit.entry.path or "": hit for hit in located_hits(tmp_path, FILES, query, at_use_sites)}


def _one(
    tmp_path: Path, path: str, body: str, query: str
) -> tuple[list[t.SearchHit], list[t.SearchHit]]:
    """One file's hit as search details it, and as at_use_sites points it."""
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records(path, body), {})
        entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
        locator = HitLocator(views)
        hits = enrich(locator, "r", query, [t.SearchHit(score=1.0, entry=entry)], details=True).hits
        return hits, at_use_sites(locator, "r", query, hits)


def test_the_declaring_file_points_at_its_callers_not_the_declaration(tmp_path: Path) -> None:
    for query in ("what calls parseArgs", "where is parseArgs used?", "callers of parseArgs"):
        hit = _hits(tmp_path, query)["flag.go"]
        assert (hit.startLine, hit.endLine) == (12, 16), (query, hit)
        assert hit.snippet == "14: err := f.parseArgs(arguments)", query


def test_a_caller_points_at_its_call_not_at_the_lines_sharing_the_names_words(
    tmp_path: Path,
) -> None:
    hit = _hits(tmp_path, "callers of FlagSet.VarPF")["count.go"]
    assert (hit.startLine, hit.endLine) == (9, 12), hit
    assert hit.snippet == "10: flag := f.VarPF(newCountValue(0, p), name, shorthand, usage)"


def test_a_file_using_the_name_nowhere_but_its_declaration_and_comments_keeps_its_lines(
    tmp_path: Path,
) -> None:
    hits, pointed = _one(tmp_path, "flag.go", FLAG, "what calls VarPF")
    assert pointed == hits


def test_a_query_not_about_users_keeps_the_lines_its_words_found(tmp_path: Path) -> None:
    hits, pointed = _one(tmp_path, "flag.go", FLAG, "parseArgs loop")
    assert pointed == hits


def test_a_qualified_name_is_used_by_a_declaration_of_the_same_simple_name(
    tmp_path: Path,
) -> None:
    """Go's package-level `ParseAll` calls the method `FlagSet.ParseAll`: a use of the
    method, though it declares the same simple name (pflag's flag.go)."""
    hit = _hits(tmp_path, "where is FlagSet.ParseAll used?")["flag.go"]
    assert (hit.startLine, hit.endLine) == (28, 30), hit
    assert hit.snippet == "29: return CommandLine.ParseAll(arguments)"


def test_an_import_of_the_name_is_no_use_while_a_call_is(tmp_path: Path) -> None:
    """A Python caller imports the name first: its hit points at the call (uvicorn's
    config.py, tests/integration/test_subject_before_test.py)."""
    body = (
        "from pkg.utils import get_client_addr\n\n\n"
        "def log_request(scope):\n    return get_client_addr(scope)\n"
    )
    _, [hit] = _one(tmp_path, "pkg/config.py", body, "what calls get_client_addr")
    assert (hit.startLine, hit.endLine) == (4, 5), hit
    assert hit.snippet == "5: return get_client_addr(scope)"


def test_a_query_for_the_importers_points_at_the_import(tmp_path: Path) -> None:
    body = (
        "from pkg.utils import get_client_addr\n\n\n"
        "def log_request(scope):\n    return get_client_addr(scope)\n"
    )
    for query in ("where is get_client_addr imported?", "what imports get_client_addr"):
        _, [hit] = _one(tmp_path, "pkg/config.py", body, query)
        assert (hit.startLine, hit.endLine) == (1, 1), (query, hit)
        assert hit.snippet == "1: from pkg.utils import get_client_addr"


def test_an_answer_with_no_use_of_the_name_says_so(tmp_path: Path) -> None:
    """QA on spf13/pflag: `what calls GetSlice` (nothing calls it) answered with twelve of its
    declarations and no word that none of them is a caller."""
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records("flag.go", FLAG), {})
        entry = t.EntryView(key="repo/r/file/flag.go", exists=True, kind="File", path="flag.go")
        locator = HitLocator(views)
        found = {}
        for query in ("what calls VarPF", "what calls parseArgs", "parseArgs loop"):
            hits = enrich(
                locator, "r", query, [t.SearchHit(score=1.0, entry=entry)], details=True
            ).hits
            found[query] = no_use_note(query, *uses_located(locator, "r", query, hits))
    assert found == {
        "what calls VarPF": "none of these hits uses VarPF outside its declarations and comments",
        "what calls parseArgs": None,
        "parseArgs loop": None,
    }


def test_a_name_inside_a_string_is_no_use(tmp_path: Path) -> None:
    """QA on spf13/pflag: `who references ContinueOnError` pointed flag_test.go at
    `t.Error("did call Usage while using ContinueOnError")`, not at a call passing it."""
    body = "\n".join(
        [
            "package pflag",  # 1
            "",
            "func TestUsage(t *testing.T) {",  # 3
            '\tt.Error("did call Usage while using ContinueOnError")',  # 4
            "}",  # 5
            "",
            "func TestAddFlagSet(t *testing.T) {",  # 7
            '\toldSet := NewFlagSet("old", ContinueOnError)',  # 8
            "}",  # 9
            "",
        ]
    )
    _, [hit] = _one(tmp_path, "flag_test.go", body, "who references ContinueOnError")
    assert (hit.startLine, hit.endLine) == (7, 9), hit
    assert hit.snippet == '8: oldSet := NewFlagSet("old", ContinueOnError)'


def test_what_a_string_literal_is() -> None:
    whole = re.compile(r"(?<![\w$])Foo(?![\w$])")
    lines = ["impl<'a> Foo<'a> for Bar {", "log('no Foo here')", 'x = "Foo"', "y = Foo()"]
    assert use_lines(lines, [], set(), whole) == [1, 4]


def test_an_attribute_no_declaration_names_is_used_through_a_value(tmp_path: Path) -> None:
    """QA on fastapi/typer: `where is pretty_exceptions_short used` pointed typer/main.py at
    the constructor parameter `pretty_exceptions_short: bool = True,`, not at `if not
    exception_config.pretty_exceptions_short:`: a use written bare came first, as for a
    function called by its own name, but no declaration names this attribute."""
    body = (
        "def except_hook(exc, exception_config):\n"
        "    if not exception_config.pretty_exceptions_short:\n"
        "        return exc\n\n\n"
        "class App:\n"
        "    def __init__(self, *, pretty_exceptions_short: bool = True) -> None:\n"
        "        self.pretty_exceptions_short = pretty_exceptions_short\n"
    )
    _, [hit] = _one(tmp_path, "pkg/main.py", body, "where is pretty_exceptions_short used")
    assert (hit.startLine, hit.endLine) == (1, 3), hit
    assert hit.snippet == "2: if not exception_config.pretty_exceptions_short:", hit
