"""Where a hit's lines are (hit_details.locate_in_file): among the lines that match the query
best, the first line of a declaration wins over a comment that names it too."""

from __future__ import annotations

from query_api.retrieval.hit_details import (
    beyond_path,
    locate_in_file,
    query_terms,
)
from query_api.retrieval.named_declaration import declaration_named
from query_api.retrieval.part_terms import by_parts as _by_parts
from streams.stores.views.symbols import SymbolRow

BODY = "\n".join(
    [
        "//! Walking: see WalkBuilder.",  # 1: names it, outside any declaration
        "use std::path::Path;",
        "",
        "/// Build a walk; WalkBuilder holds its options.",  # 4: the doc comment above it
        "pub struct WalkBuilder {",  # 5: the declaration
        "    max_depth: Option<usize>,",
        "}",
    ]
)
STRUCT = SymbolRow("r", "src/walk.rs", "walk.WalkBuilder", "WalkBuilder", "Class", 5, 7, "d", "")


def test_the_declaration_line_wins_a_tie_with_a_comment_naming_it() -> None:
    found = locate_in_file(BODY, [STRUCT], query_terms("WalkBuilder"))
    assert found is not None
    assert (found.start_line, found.end_line) == (5, 7)
    assert found.snippet.splitlines()[0] == "5: pub struct WalkBuilder {"


def test_a_better_matching_line_still_wins_over_a_declaration() -> None:
    found = locate_in_file(BODY, [STRUCT], query_terms("WalkBuilder walking see"))
    assert found is not None
    assert found.start_line == 1


LONG = "\n".join(
    [
        "class Context:",  # 1
        *[f"    attribute_{n} = {n}" for n in range(2, 200)],  # 2-199
        "    def invoke(self):",  # 200
        "        return self.callback()",
        *[f"    other_{n} = {n}" for n in range(202, 400)],
    ]
)
CLASS = SymbolRow("r", "core.py", "core.Context", "Context", "Class", 1, 401, "d", "")


def test_a_match_in_a_long_declaration_names_the_lines_around_it() -> None:
    """A class of 400 lines is no range to open: the matching lines and a few around them."""
    for within in (None, CLASS):  # a file hit (the innermost declaration) and a symbol hit
        found = locate_in_file(LONG, [CLASS], query_terms("invoke callback"), within)
        assert found is not None
        assert found.snippet == "200: def invoke(self):\n201: return self.callback()"
        assert (found.start_line, found.end_line) == (197, 204)


def test_a_long_symbol_with_no_matching_line_names_its_first_lines() -> None:
    found = locate_in_file(LONG, [CLASS], query_terms("zebra"), CLASS)
    assert found is not None
    assert (found.start_line, found.end_line) == (1, 40) and found.snippet.startswith("1: class")


def test_a_camel_case_identifier_is_found_by_its_words_where_it_is_not_whole() -> None:
    """`ParameterSource` lower-cased is one token; its words come from the text as asked, so
    a hit whose file only says `parameter ... source` still gets those lines."""
    terms = query_terms("ParameterSource")
    assert terms.identifiers == ("parametersource",)
    assert terms.parts == {"parameter", "source"}
    body = "import os\n\ndef value_of(parameter):\n    return parameter.source\n"
    # nothing holds it whole: the line holding all its words counts, and by its parts alone
    # (the words of a query whose identifiers no line holds) that line is found too
    for by in (terms, _by_parts(terms)):
        found = locate_in_file(body, [], by)
        assert found is not None and found.start_line <= 4 <= found.end_line, found
        assert "4: return parameter.source" in found.snippet, found


def test_a_qualified_name_names_the_declaration_whose_trailing_parts_it_spells() -> None:
    rows = [
        SymbolRow("r", "src/routing.rs", f"routing.{owner}.route", "route", "Method", a, b, "d", "")
        for owner, a, b in (("MethodRouter", 3, 9), ("Router", 12, 20))
    ]
    for query, start in (
        ("Router::route panics on a nested path", 12),
        ("routing::MethodRouter::route", 3),
        ("Router.route", 12),
    ):
        named = declaration_named(rows, query_terms(query), "src/routing.rs", set())
        assert named is not None and named.start_line == start, query
    # one part alone, or parts that disagree, name nothing
    for query in ("route", "Other::route", "routing.route"):
        assert declaration_named(rows, query_terms(query), "src/routing.rs", set()) is None


def test_a_java_method_is_named_without_its_parameter_types() -> None:
    row = SymbolRow(
        "r",
        "core/JsonParser.java",
        "core.JsonParser.getNumberType(java.lang.String,int)",
        "getNumberType",
        "Method",
        1800,
        1800,
        "d",
        "",
    )
    named = declaration_named([row], query_terms("JsonParser.getNumberType"), row.path, set())
    assert named is row


def test_a_qualified_name_of_a_private_member_names_its_declaration() -> None:
    """QA on sindresorhus/ky: outline names the method `Ky.#retryFromError`; searching that
    name put the hit's lines on a call site (`ky.#retryFromError(...)`, whose line also holds
    `ky`) 750 lines above the declaration, since the `#` cut the name in two."""
    rows = [SymbolRow("r", "source/core/Ky.ts", "Ky", "Ky", "Type", 151, 1140, "d", "")]
    rows += [
        SymbolRow("r", "source/core/Ky.ts", fq, name, "Method", a, b, "d", "")
        for fq, name, a, b in (
            ("Ky.#retry", "#retry", 942, 948),
            ("Ky.#retryFromError", "#retryFromError", 950, 1026),
        )
    ]
    for query in ("Ky.#retryFromError", "where is Ky.#retryFromError called"):
        named = declaration_named(rows, query_terms(query), "source/core/Ky.ts", set())
        assert named is not None and named.fq_name == "Ky.#retryFromError", query
    assert "ky.#retryfromerror" in query_terms("Ky.#retryFromError").identifiers


def test_a_named_declaration_past_the_first_candidates_still_wins_a_tie() -> None:
    """Jinja's filters.py for "don't apply `urlize` to `@a@b`": `b` is a word of the query on
    hundreds of lines, so the 64 lines scored exactly were the file's first; `do_urlize`,
    which the hit's reasons name, lay past them and the hit named `from .utils import
    urlize` at line 29."""
    body = "\n".join(
        [
            "from .utils import urlize",  # 1: `urlize`
            *[f"value_b{n} = b  # b" for n in range(2, 200)],  # 2-199: `b`
            "def do_urlize(value):",  # 200: `urlize`, the declaration named
            "    return urlize(value)",
        ]
    )
    named = SymbolRow("r", "f.py", "f.do_urlize", "do_urlize", "Function", 200, 201, "d", "")
    found = locate_in_file(body, [named], query_terms("apply `urlize` to `@a@b`"), None, [named])
    assert found is not None
    assert (found.start_line, found.end_line) == (200, 201)


def test_an_identifier_standing_whole_beats_one_inside_a_longer_name() -> None:
    # axios' http.js: `httpAdapter` located line 127's `isHttpAdapterSupported`, above line
    # 169 where the adapter itself is declared
    body = "\n".join(
        [
            "const isHttpAdapterSupported = typeof process !== 'undefined';",  # 1
            *["// ..." for _ in range(2, 42)],
            "export default isHttpAdapterSupported && function httpAdapter(config) {",  # 42
            "  return config;",
            "}",
        ]
    )
    found = locate_in_file(body, [], query_terms("httpAdapter"))
    assert found is not None
    assert found.start_line == 42, found


def test_the_words_a_path_says_do_not_pick_its_lines() -> None:
    # unstorage: every driver declares `DRIVER_NAME = "<name>"`; for `memory driver timers
    # ttl` that line of src/drivers/memory.ts won over the lines holding the timers
    body = "\n".join(
        [
            "import { defineDriver } from './utils';",  # 1
            'const DRIVER_NAME = "memory";',  # 2
            *["// ..." for _ in range(3, 30)],
            "  const timers = new Map();",  # 30
            "  function scheduleTtl(key, ttl) {",  # 31
            "    timers.set(key, setTimeout(() => data.delete(key), ttl));",  # 32
            "  }",
        ]
    )
    terms = beyond_path(query_terms("memory driver timers ttl"), "src/drivers/memory.ts")
    found = locate_in_file(body, [], terms)
    assert found is not None
    assert found.start_line >= 30, found
    # a query of path words alone keeps them: they are all there is to locate
    alone = query_terms("memory driver")
    assert beyond_path(alone, "src/drivers/memory.ts") == alone


def test_a_rust_path_names_the_declaration_in_its_module_file() -> None:
    # fd: `crate::exec::CommandSet` put src/exec/mod.rs's hit on its `use` lines, which hold
    # the most of the path's words; the struct is declared in that module as `CommandSet`
    body = "\n".join(
        [
            "use argmax::Command;",  # 1
            "use crate::exec::command::OutputBuffer;",  # 2
            "",
            "pub struct CommandSet {",  # 4
            "    mode: ExecutionMode,",
            "}",
        ]
    )
    struct = SymbolRow("r", "src/exec/mod.rs", "CommandSet", "CommandSet", "Type", 4, 6, "d", "")
    other = SymbolRow("r", "src/cli.rs", "CommandSet", "CommandSet", "Type", 4, 6, "d", "")
    terms = query_terms("crate::exec::CommandSet")
    assert declaration_named([struct], terms, "src/exec/mod.rs", set()) == struct
    assert declaration_named([other], terms, "src/cli.rs", set()) is None
    found = locate_in_file(body, [struct], terms, within=struct)
    assert found is not None and found.start_line == 4, found


def test_an_identifier_whose_words_a_line_holds_apart_counts_there() -> None:
    # go-resty/resty's request.go for "Fixed JSONIndent request logging data race": the hit's
    # reasons named `noescapeJSONMarshalIndent` first, but no line holds `jsonindent`, so the
    # hit pointed at line 35's `FormData url.Values`, which holds `data`
    body = "\n".join(
        [
            "type Request struct {",  # 1
            "\tFormData      url.Values",  # 2: `data`
            "}",
            *["// ..." for _ in range(4, 40)],
            "var noescapeJSONMarshalIndent = func(v interface{}) (*bytes.Buffer, error) {",  # 40
            "\tbuf := acquireBuffer()",
            "\treturn buf, nil",
            "}",
        ]
    )
    struct = SymbolRow("r", "request.go", "resty.Request", "Request", "Class", 1, 3, "d", "")
    field = SymbolRow(
        "r", "request.go", "resty.Request.FormData", "FormData", "Field", 2, 2, "d", ""
    )
    indent = SymbolRow(
        "r",
        "request.go",
        "resty.noescapeJSONMarshalIndent",
        "noescapeJSONMarshalIndent",
        "Field",
        40,
        43,
        "d",
        "",
    )
    terms = query_terms("JSONIndent logging data race")
    found = locate_in_file(body, [struct, field, indent], terms, None, [indent, field])
    assert found is not None
    assert (found.start_line, found.end_line) == (40, 43), found
    # a line holding the identifier whole still outranks one holding its words apart
    whole = "\n".join([body, *["// ..." for _ in range(44, 60)], "// JSONIndent data"])  # 60
    found = locate_in_file(whole, [struct, field, indent], terms, None, [indent, field])
    assert found is not None and (found.start_line, found.end_line) == (60, 60), found


def test_query_words_a_line_runs_together_count_there() -> None:
    # go-resty/resty's util_curl.go for "shell escape of the curl command arguments": the hit's
    # reasons led with `buildCurlRequest`, whose lines call `shellescape.Quote`, but the hit
    # pointed at `dumpCurlCookies`' `url.QueryEscape`, the one line holding `escape` apart
    body = "\n".join(
        [
            "func dumpCurlCookies(cookies []*http.Cookie) string {",  # 1
            '\tsb.WriteString(cookie.Name + "=" + url.QueryEscape(cookie.Value))',  # 2
            "}",
            *["// ..." for _ in range(4, 20)],
            "func buildCurlRequest(req *http.Request) (curl string) {",  # 20
            '\tcmd += " " + shellescape.Quote(arg)',  # 21: shell + escape, run together
            "}",
        ]
    )
    terms = query_terms("shell escape of the command arguments")
    found = locate_in_file(body, [], terms)
    assert found is not None and (found.start_line, found.end_line) == (21, 21), found
    # words that only run together in the query's order: `escapeshell` is no `shellescape`
    assert locate_in_file(body, [], query_terms("escape shell")).start_line == 2  # type: ignore[union-attr]


def test_a_query_word_a_line_writes_as_two_tokens_counts_there() -> None:
    # the mirror of `shell escape` -> `shellescape`: resty's request "... when cookiejar in use"
    # writes as one word what the code writes `CookieJar` (cookie, jar)
    body = "\n".join(
        [
            "// use the default transport",  # 1: `use`
            *["// ..." for _ in range(2, 20)],
            "jar := c.httpClient.CookieJar() // use it",  # 20: `cookiejar` and `use`
        ]
    )
    found = locate_in_file(body, [], query_terms("cookiejar in use"))
    assert found is not None and found.start_line == 20, found


def test_a_qualified_name_names_the_declaration_spelled_in_its_case() -> None:
    """QA on uber-go/zap: `CheckedEntry.Before` (the method) put the hit's lines on the field
    `CheckedEntry.before` (line 224, a `[]CheckPreWriteHook`), 95 lines above the method: Go
    declares both, and a tie on the casefolded parts kept the first declared. The spelling
    written breaks the tie; a spelling matching neither still names one of them."""
    rows = [
        SymbolRow("r", "zapcore/entry.go", fq, name, kind, a, b, "d", "")
        for fq, name, kind, a, b in (
            ("zapcore.CheckedEntry.before", "before", "Field", 224, 224),
            ("zapcore.CheckedEntry.Before", "Before", "Method", 319, 326),
        )
    ]
    for query, start in (
        ("CheckedEntry.Before", 319),
        ("zapcore.CheckedEntry.Before", 319),
        ("where is CheckedEntry.before set", 224),
    ):
        named = declaration_named(rows, query_terms(query), "zapcore/entry.go", set())
        assert named is not None and named.start_line == start, query
    named = declaration_named(rows, query_terms("checkedentry.BEFORE"), "zapcore/entry.go", set())
    assert named is not None


def test_a_use_inside_a_declaration_wins_a_tie_with_the_import_naming_it() -> None:
    """QA on encode/uvicorn: `what calls get_client_addr` pointed every caller's hit at its
    import line (`config.py:20`), not at the call (`config.py:422`)."""
    body = "\n".join(
        [
            "from uvicorn.protocols.utils import get_client_addr",  # 1: the import
            "",
            "",
            "def scope_of(scope):",  # 4
            "    client = get_client_addr(scope)",  # 5: the call
            "    return client",
        ]
    )
    caller = SymbolRow("r", "app.py", "app.scope_of", "scope_of", "Function", 4, 6, "d", "")
    found = locate_in_file(body, [caller], query_terms("what calls get_client_addr"))
    assert found is not None and (found.start_line, found.end_line) == (4, 6), found
    assert found.snippet == "5: client = get_client_addr(scope)", found


def test_a_query_word_counts_on_a_line_holding_its_plural_or_singular() -> None:
    """A commons-cli or kysely request says `migrations` or `options` where the code writes
    `Migration` and `option`: token by token, no such line matched, and the hit pointed at
    the one line holding the query's other word."""
    body = "\n".join(
        [
            "// check the state",  # 1: `check` only
            *["// ..." for _ in range(2, 20)],
            "func checkMigration(m Migration) error {",  # 20: `check`'s words and `migration`
            "\treturn nil",
            "}",
        ]
    )
    found = locate_in_file(body, [], query_terms("check pending migrations"))
    assert found is not None and found.start_line == 20, found
    filler = ["# ..." for _ in range(2, 30)]
    entries = "\n".join(["x = 1 # check", *filler, "entry = check()"])
    found = locate_in_file(entries, [], query_terms("check entries"))
    assert found is not None and found.start_line == 30, found  # `entries` -> `entry`
    classes = "\n".join(["x = 1 # check", *filler, "classes = check()"])
    found = locate_in_file(classes, [], query_terms("check class"))
    assert found is not None and found.start_line == 30, found  # `class` -> `classes`
    # a word that reads as no plural keeps to itself: `status` is no `statu`
    status = "\n".join(["statu = 1 # check", *filler, "status = check()"])
    found = locate_in_file(status, [], query_terms("check status"))
    assert found is not None and found.start_line == 30, found


def test_a_rust_hit_points_at_code_before_the_tests_in_its_file() -> None:
    """QA on seanmonstar/reqwest: a unit test names what it checks in the query's words
    (`fn timeout_applies_to_connect`), and its line outscored the code the request is about.
    A `#[cfg(test)]` module's lines are the hit's only when the query is about tests, or
    when no other line matches."""
    body = "\n".join(
        [
            "pub fn connect(timeout: Duration) -> Conn {",  # 1: `timeout`
            "    Conn::new()",
            "}",
            "",
            "#[cfg(test)]",  # 5
            "mod tests {",  # 6
            "    #[test]",
            "    fn connect_timeout_applies() {",  # 8: `connect` and `timeout`
            "        assert!(true);",
            "    }",
            "}",
        ]
    )
    symbols = [
        SymbolRow("r", "src/c.rs", "c.connect", "connect", "Function", 1, 3, "d", ""),
        SymbolRow("r", "src/c.rs", "c.tests", "tests", "Namespace", 6, 11, "d", "mod tests"),
        SymbolRow(
            "r",
            "src/c.rs",
            "c.tests.connect_timeout_applies",
            "connect_timeout_applies",
            "Function",
            8,
            10,
            "d",
            "",
        ),
    ]
    found = locate_in_file(body, symbols, query_terms("connect timeout applies"))
    assert found is not None and found.start_line == 1, found
    about = locate_in_file(body, symbols, query_terms("tests for connect timeout applies"))
    assert about is not None and about.start_line == 8, about
    # only the tests hold the words: they are the hit's lines
    only = locate_in_file(body, symbols, query_terms("applies"))
    assert only is not None and only.start_line == 8, only


def test_a_hit_points_at_an_overloads_code_not_its_stubs() -> None:
    """Click's `progressbar update_min_steps` pointed at the first `@overload` stub
    (`-> ProgressBar[int]: ...`), not at the function below it that holds the code; so does
    TypeScript's overload signatures. Java's overloads all hold code: the first still wins."""
    params = "    update_min_steps: int = 1,"
    py = "\n".join(
        [
            "@t.overload",
            "def progressbar(",  # 2: stub
            params,
            ") -> ProgressBar[int]: ...",
            "",
            "def progressbar(",  # 6: the code
            params,
            ") -> ProgressBar[V]:",
            "    return ProgressBar(update_min_steps=update_min_steps)",
        ]
    )
    rows = [
        SymbolRow("r", "t.py", "t.progressbar(int)", "progressbar", "Function", 2, 4, "d", ""),
        SymbolRow("r", "t.py", "t.progressbar(V)", "progressbar", "Function", 6, 9, "d", ""),
    ]
    found = locate_in_file(py, rows, query_terms("progressbar update_min_steps"))
    assert found is not None and found.start_line == 6, found
    ts = "\n".join(
        [
            "export function watch(source: Ref, cb: WatchCallback): StopHandle;",  # 1: stub
            "export function watch(source: Ref[], cb: WatchCallback): StopHandle;",  # 2: stub
            "export function watch(source: any, cb: any): StopHandle {",  # 3: the code
            "  return doWatch(source, cb)",
            "}",
        ]
    )
    rows = [
        SymbolRow("r", "w.ts", f"w.watch({t})", "watch", "Function", n, z, "d", "")
        for t, n, z in (("Ref,WatchCallback", 1, 1), ("Ref[],WatchCallback", 2, 2), ("any", 3, 5))
    ]
    found = locate_in_file(ts, rows, query_terms("watch source callback"))
    assert found is not None and found.start_line == 3, found
    java = "\n".join(
        [
            "public String attr(String key) {",  # 1: code
            "  return attributes.get(key);",
            "}",
            "public Element attr(String key, String value) {",  # 4: code too
            "  attributes.put(key, value); return this;",
            "}",
        ]
    )
    rows = [
        SymbolRow("r", "E.java", "E.attr(String)", "attr", "Method", 1, 3, "d", ""),
        SymbolRow("r", "E.java", "E.attr(String,String)", "attr", "Method", 4, 6, "d", ""),
    ]
    found = locate_in_file(java, rows, query_terms("attr key"))
    assert found is not None and found.start_line == 1, found
