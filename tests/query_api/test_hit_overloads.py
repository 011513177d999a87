"""Of a Java method's overloads, the one whose parameter types the query writes is the one
it names (query_api/retrieval/named_declaration.py; processors/qualified_names.py)."""

from __future__ import annotations

from processors.qualified_names import written_parameters
from query_api.retrieval.hit_details import query_terms
from query_api.retrieval.named_declaration import declaration_named
from streams.stores.views.symbol_spans import SymbolSpan
from streams.stores.views.symbols import SymbolRow

PATH = "src/main/java/org/apache/commons/cli/CommandLine.java"
ROWS = [
    SymbolRow("r", PATH, f"org.apache.commons.cli.CommandLine.getOptionValue({params})",
              "getOptionValue", "Method", start, start + 2, "d", "")
    for params, start in (
        ("char", 352),
        ("char,String", 363),
        ("Option", 386),
        ("Option,String", 398),
        ("Option,Supplier<String>", 410),
        ("String,Supplier<String>", 480),
    )
]  # fmt: skip


def test_the_overload_whose_parameter_types_the_query_writes_is_named() -> None:
    """QA on apache/commons-cli: 'CommandLine.getOptionValue(Option, String) should use the
    default ...' put the hit's lines on getOptionValue(char), line 352, the first of fifteen
    overloads sharing the written name, not on getOptionValue(Option,String) at 398."""
    cases = (
        ("CommandLine.getOptionValue(Option, String) should use the default", 398),
        ("fix CommandLine.getOptionValue(final Option option, String defaultValue)", 398),
        ("CommandLine.getOptionValue(String, Supplier<String>) ignores the supplier", 480),
        ("CommandLine.getOptionValue(option) returns null", 386),
    )
    for query, start in cases:
        named = declaration_named(ROWS, query_terms(query), PATH, set())
        assert named is not None and named.start_line == start, (query, named)


def test_without_parameter_types_the_first_overload_is_still_named() -> None:
    named = declaration_named(ROWS, query_terms("CommandLine.getOptionValue"), PATH, set())
    assert named is not None and named.start_line == 352, named
    unknown = query_terms("CommandLine.getOptionValue(Path) is missing")
    named = declaration_named(ROWS, unknown, PATH, set())
    assert named is not None and named.start_line == 352, named


def test_the_written_parameter_types_are_read_as_types() -> None:
    """Without modifiers, annotations, parameter names or packages; varargs as arrays; a
    name with a space before its parenthesis is prose, `f (x)`."""
    query = "Map.of(java.util.Map<String, Integer> m, @Nullable final int... xs), run() and f (x)"
    assert written_parameters(query) == {
        "of": (("map<string,integer>", "int[]"),),
        "run": ((),),
    }


def test_of_names_agreeing_as_well_the_one_written_first_is_named() -> None:
    """QA on apache/commons-cli: a stack trace names each frame by its qualified name, all
    agreeing on as many parts; the hit's lines went to whichever frame the file declares
    first (makeColumnQueue, line 310), not the top frame the trace writes first."""
    path = "src/main/java/org/apache/commons/cli/help/TextHelpAppendable.java"
    rows = [
        SymbolRow("r", path, f"org.apache.commons.cli.help.TextHelpAppendable.{name}", name,
                  "Method", start, start + 15, "d", "")
        for name, start in (("makeColumnQueue", 310), ("writeColumnQueues", 445))
    ]  # fmt: skip
    trace = (
        "java.lang.StringIndexOutOfBoundsException: begin 0, end -1\n"
        "\tat org.apache.commons.cli.help.TextHelpAppendable.writeColumnQueues"
        "(TextHelpAppendable.java:450)\n"
        "\tat org.apache.commons.cli.help.TextHelpAppendable.makeColumnQueue"
        "(TextHelpAppendable.java:320)\n"
    )
    named = declaration_named(rows, query_terms(trace), path, set())
    assert named is not None and named.start_line == 445, named


def test_of_a_field_and_a_method_of_one_name_the_method_is_named() -> None:
    """QA on seanmonstar/reqwest: src/blocking/client.rs's `ClientBuilder` has a field
    `timeout` (line 82) and a method `timeout` (388); `ClientBuilder.timeout` put the hit's
    lines on the field, declared first. Both a Span from the cache and a row carry a kind."""
    path = "src/blocking/client.rs"
    for make in (
        lambda kind, start: SymbolSpan("ClientBuilder.timeout", "timeout", start, start, kind),
        lambda kind, start: SymbolRow(
            "r", path, "ClientBuilder.timeout", "timeout", kind, start, start + 4, "d", ""
        ),
    ):
        rows = [make("Field", 82), make("Method", 388)]
        for query in ("ClientBuilder.timeout", "ClientBuilder::timeout ignores the pool"):
            named = declaration_named(rows, query_terms(query), path, set())
            assert named is not None and named.start_line == 388, (query, named)


FORMAT = "src/main/java/org/apache/commons/csv/CSVFormat.java"
PRINTS = [
    SymbolRow("r", FORMAT, f"org.apache.commons.csv.CSVFormat.{name}({params})", name,
              "Method", start, start + 30, "d", "")
    for name, params, start in (
        ("print", "Object,Appendable,boolean", 2280),
        ("printWithEscapes", "CharSequence,Appendable", 2402),
        ("printWithEscapes", "Reader,Appendable", 2451),
    )
]  # fmt: skip


def test_an_unqualified_name_written_with_a_parameter_type_names_its_overload() -> None:
    """QA on apache/commons-csv: 'fix quadratic printWithEscapes(Reader) delimiter
    look-ahead' pointed CSVFormat.java at printWithEscapes(CharSequence,Appendable), line
    2402, not the Reader overload the commit changed: the types are read for a qualified
    name only, and a subject writes the one type that tells the overloads apart."""
    query = "fix quadratic printWithEscapes(Reader) delimiter look-ahead"
    named = declaration_named(PRINTS, query_terms(query), FORMAT, set())
    assert named is not None and named.start_line == 2451, named
    exact = query_terms("printWithEscapes(CharSequence, Appendable) drops a quote")
    named = declaration_named(PRINTS, exact, FORMAT, set())
    assert named is not None and named.start_line == 2402, named


def test_an_unqualified_name_names_no_overload_its_types_fit_twice_or_never() -> None:
    for query in ("printWithEscapes(Appendable) is slow", "printWithEscapes(Path) is missing"):
        assert declaration_named(PRINTS, query_terms(query), FORMAT, set()) is None, query
    # one declaration of the name has no overload to tell apart: the lines are the words'
    assert declaration_named(PRINTS, query_terms("print(Object) fails"), FORMAT, set()) is None


def test_past_the_stored_text_the_overload_a_type_fits_is_named() -> None:
    """CSVFormat.java is longer than the stored text, and both overloads lie past it: the
    hit's reasons name the first, and only an exact type list chose another."""
    from query_api.retrieval.past_body_names import named_past_body

    body = "\n".join(f"// line {n}" for n in range(1, 1770))
    spans = [
        SymbolSpan(row.fq_name, row.name, row.start_line, row.end_line, "Method") for row in PRINTS
    ]
    reasons = [f"symbol:{spans[1].fq_name}", f"symbol:{spans[2].fq_name}"]
    terms = query_terms("fix quadratic printWithEscapes(Reader) delimiter look-ahead")
    found = named_past_body(spans, reasons, terms, body)
    assert found is not None and found.start_line == 2451, found
