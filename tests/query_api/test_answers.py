"""The wire form of a tool answer (query_api.answers.render): optional fields that hold nothing are
left out at any depth, required ones never; the text block is a rendering, not the JSON."""

from __future__ import annotations

import json

from query_api.answers.render import pruned, render, wire_message
from query_api.answers.text import quoted, reused_line
from query_api.context.span_reuse import held_runs
from schemas import bundle as b
from schemas import symbols as sy
from schemas import tools as t
from schemas.symbols import SymbolAt


def test_empty_optional_fields_are_left_out_and_required_ones_kept() -> None:
    hit = t.SearchHit(
        score=1.5,
        entry=t.EntryView(key="repo/r/file/a.py", exists=True, kind="File", path="a.py"),
        reasons=["content-match"],
    )
    result = t.SearchResult(
        repoId="r", query="q", mode="keyword", retrievalPath="keyword.no_embedder", hits=[hit]
    )
    assert pruned(result) == {
        "repoId": "r",
        "query": "q",
        "mode": "keyword",
        "retrievalPath": "keyword.no_embedder",
        "hits": [
            {
                "score": 1.5,
                "entry": {
                    "key": "repo/r/file/a.py",
                    "exists": True,
                    "kind": "File",
                    "path": "a.py",
                },
                "reasons": ["content-match"],
            }
        ],
    }
    empty = result.model_copy(update={"hits": []})
    assert pruned(empty)["hits"] == []  # required: an empty answer still says so
    scan_end = b.StatsResult(calls=0, responseTokens=0, readsReplacedTokens=0, netSavedTokens=0)
    assert pruned(scan_end)["calls"] == 0  # zero and false are values, not emptiness


def test_the_text_block_is_a_rendering_and_the_wire_counts_both() -> None:
    status = t.IndexStatus(repoId="r", status="Completed", error='boom "x"\nline')
    payload, text = render(status)
    assert "error" in payload and not text.startswith("{")
    assert "repoId: r" in text and 'error: "boom \\"x\\"\\nline"' in text
    message = json.loads(wire_message(payload, text))
    assert message["result"]["structuredContent"] == payload
    assert message["result"]["content"] == [{"type": "text", "text": text}]


def test_a_changed_answer_with_no_change_says_so() -> None:
    """Its empty lists are pruned, so the generic rendering was `repoId: r` alone."""
    assert render(sy.ChangedResult(repoId="r"))[1] == (
        "no file added, updated or removed in r since it was indexed"
    )
    git = sy.ChangedResult(repoId="r", indexedCommit="abc", headCommit="abc")
    assert render(git)[1].splitlines()[1:] == ["indexedCommit: abc", "headCommit: abc"]
    changed = render(sy.ChangedResult(repoId="r", updated=["a.py"]))[1]
    assert changed.splitlines() == ["repoId: r", "updated:", "  - a.py"]


def test_a_changed_answers_dependents_are_one_line_a_file() -> None:
    """As related lists them: two lines a dependent (`symbol:`, `path:`) spent a QA pass's 38
    dependents of one edited file twice over."""
    dependents = [
        SymbolAt(symbol="core.Ask", path="core/ask.go"),
        SymbolAt(symbol="core.Retry", path="core/ask.go"),
        SymbolAt(symbol="cli.main", path="cli/main.go"),
    ]
    text = render(sy.ChangedResult(repoId="r", updated=["a.go"], dependents=dependents))[1]
    assert text.splitlines()[-3:] == [
        "dependents:",
        "  core/ask.go: core.Ask, core.Retry",
        "  cli/main.go: cli.main",
    ]


def test_not_indexed_says_when_the_views_trail_the_log() -> None:
    """Right after a start the file may be in the log and not yet in the views."""
    fresh = t.Freshness(appliedOffsets=489, logEndOffsets=1415, eventsBehind=926)
    for model in (
        sy.OutlineResult(repoId="r", path="lib/hooks.js", exists=False, freshness=fresh),
        sy.RelatedResult(repoId="r", path="lib/hooks.js", exists=False, freshness=fresh),
    ):
        assert render(model)[1].splitlines() == [
            "lib/hooks.js is not indexed in r",
            "freshness: views trail the log by 926 events",
        ]


def test_one_is_singular() -> None:
    fresh = t.Freshness(appliedOffsets=1, logEndOffsets=2, eventsBehind=1, pendingFiles=1)
    hit = t.SearchHit(
        score=1.0,
        entry=t.EntryView(key="repo/r/file/a.py", exists=True, kind="File", path="a.py"),
        reasons=["content-match"],
    )
    text = render(
        t.SearchResult(
            repoId="r",
            query="q",
            mode="keyword",
            retrievalPath="keyword.no_embedder",
            hits=[hit],
            freshness=fresh,
        )
    )[1]
    assert text.splitlines()[:2] == [
        "1 hit for q in r (keyword.no_embedder)",
        "freshness: views trail the log by 1 event; 1 changed file not indexed yet",
    ]


def test_a_file_searched_only_in_part_says_where_search_stops() -> None:
    """The branches the integration test's sample does not reach: a file longer than the
    indexed limit, and index_status counting such files."""
    main = sy.OutlineSymbol(
        fullyQualifiedName="main", kind="Function", signature="int main()", startLine=1, endLine=3
    )
    outline = sy.OutlineResult(
        repoId="r",
        path="big.c",
        exists=True,
        symbols=[main],
        truncated=True,
        truncatedAtLine=900,
        indexedChars=1_048_576,
        sizeBytes=2_500_000,
    )
    text = render(outline)[1]
    assert text.split("\n")[1] == (
        "text stops at line 900 of a 2,500,000-byte file (64 Ki characters stored); "
        "declarations and search stop at character 1048576"
    )
    status = t.IndexStatus(
        repoId="r",
        filesSkipped=3,
        skippedByReason={"permission": 1, "binary": 2},
        filesTruncated=4,
        filesSearchedInPart=1,
    )
    text = render(status)[1]
    assert "skipped: 3 files (binary 2, permission 1)" in text
    assert (
        "truncated: 4 files past the 64 Ki characters stored (1 of them searched only in part)"
        in text
    )
    assert "skipped" not in render(t.IndexStatus(repoId="r"))[1]  # nothing left out: no line
    unknown = render(t.IndexStatus(repoId="nope", status="None"))[1]
    assert unknown.startswith("no index job is recorded for 'nope': repocontext_list_repos"), (
        unknown
    )
    assert "no index job" not in render(t.IndexStatus(repoId="r", status="Completed"))[1]


def test_a_bundles_shared_reasons_are_said_once_in_its_text() -> None:
    """Every entry found by the vectors says `semantic` and `chunk:file`: the text block says
    such reasons once, in its head line, and each entry's header only its own."""

    def entry(path: str, reasons: list[str]) -> b.BundleEntry:
        return b.BundleEntry(
            path=path,
            score=1.0,
            reasons=reasons,
            tokenCount=1,
            content="x = 1",
            contentHash="0" * 64,
            units=[b.Unit(receipt="r", kind="pointer", symbol=None, tokenCount=1)],
        )

    def bundle(*entries: b.BundleEntry) -> b.ContextResult:
        return b.ContextResult(
            repoId="r",
            task="t",
            mode="semantic",
            retrievalPath="semantic.exact",
            detail="slices",
            budgetTokens=8192,
            totalTokens=2,
            responseTokens=100,
            truncated=False,
            entries=list(entries),
        )

    both = ["semantic", "chunk:file", "keyword-fused"]
    text = render(
        bundle(
            entry("a.py", [*both, "symbol:run", "content-match"]),
            entry("b.py", [*both, "path-name-match"]),
        )
    )[1]
    assert text.splitlines() == [
        "2 files in r at slices (semantic.exact); 100/8192 tokens",
        "== a.py [symbol:run, content-match]",
        "x = 1",
        "== b.py [path-name-match]",
        "x = 1",
    ]
    # how the files were found (vectors, chunks, both lists) is the head line's retrieval
    # path; the headers say why each file is here, and the JSON keeps every reason
    one = render(bundle(entry("a.py", [*both, "content-match"])))[1].splitlines()
    assert one[1] == "== a.py [content-match]"
    both_found = render(bundle(entry("a.py", [*both, "related:b.py"]), entry("b.py", both)))[1]
    assert both_found.splitlines()[:2] == [
        "2 files in r at slices (semantic.exact); 100/8192 tokens",
        "== a.py [related:b.py]",
    ]


def test_text_that_does_not_print_is_escaped_where_the_text_block_echoes_it() -> None:
    """A NUL or an escape sequence in a query reached the text block's first line raw (a QA
    pass over HTTP: `search` with a NUL in its query)."""
    query = "cache\x00key \x1b[31mred\x1b[0m \u2028end"
    result = t.SearchResult(
        repoId="r", query=query, mode="keyword", retrievalPath="keyword.no_embedder", hits=[]
    )
    _, text = render(result)
    head = text.splitlines()[0]
    assert head.isprintable() and "\\u0000" in head and "\\u001b[31m" in head
    assert "\\u2028" in head
    assert quoted("plain words") == "plain words"
    assert json.loads(quoted(query)) == query  # still a JSON string of the same text


def test_an_outline_s_note_on_an_indexed_file_is_in_its_text() -> None:
    """The note of an outline of a file declaring nothing itself names the modules it imports
    (7c43990), in the JSON only: the text block, which some clients give the model alone,
    said "src/cache.ts in web: 1 line, 0 symbols" and nothing of where the code is."""
    note = "src/cache.ts declares nothing itself; it imports src/internal/cache: outline those"
    outline = sy.OutlineResult(repoId="web", path="src/cache.ts", exists=True, lineCount=1)
    text = render(outline.model_copy(update={"note": note}))[1]
    assert text.splitlines() == ["src/cache.ts in web: 1 line, 0 symbols", note]


def test_an_outline_paged_past_its_end_says_so_once_in_the_text() -> None:
    """QA on pallets/jinja: `repocontext_outline` of compiler.py at offset 200 said "offset
    past the last of 144 declarations" and then its note "offset 200 is past the file's 144
    declarations"; the note stays in the JSON."""
    note = "offset 200 is past the file's 144 declarations"
    outline = sy.OutlineResult(
        repoId="r", path="src/compiler.py", exists=True, lineCount=9, symbolCount=144, note=note
    )
    text = render(outline)[1]
    assert text.splitlines() == [
        "src/compiler.py in r: 9 lines, 144 symbols",
        "offset past the last of 144 declarations",
    ]


def test_a_test_file_among_a_files_dependents_lists_its_symbols_once_in_the_text() -> None:
    """A test file that uses the file is one of its dependents and one of its tests, with the
    same symbols (docs/answers.md): on spf13/cobra, related(completions.go) wrote
    completions_test.go's 55 test names twice, about 600 of the text's 1,500 tokens. The
    dependents line names the file and sends the reader to its symbols under tests; a test
    file with symbols the tests list lacks keeps them."""
    a_test = [SymbolAt(symbol=f"cobra.Test{n}", path="a_test.go") for n in ("One", "Two")]
    dependents = [SymbolAt(symbol="cobra.Run", path="run.go"), *a_test]
    dependents.append(SymbolAt(symbol="cobra.TestOther", path="b_test.go"))
    tests = [*a_test, SymbolAt(symbol="cobra.TestNamed", path="b_test.go")]
    answer = sy.RelatedResult(
        repoId="r", path="a.go", exists=True, dependents=dependents, tests=tests
    )
    assert render(answer)[1].splitlines()[2:] == [
        "dependents:",
        "  run.go: cobra.Run",
        "  b_test.go: cobra.TestOther",
        "  and 1 test file, listed under tests",
        "tests:",
        "  a_test.go: cobra.TestOne, cobra.TestTwo",
        "  b_test.go: cobra.TestNamed",
    ]


def declared(fq: str, kind: str, sig: str, start: int, end: int) -> sy.OutlineSymbol:
    """One outline symbol, as the outline tests below list them."""
    return sy.OutlineSymbol(
        fullyQualifiedName=fq, kind=kind, signature=sig, startLine=start, endLine=end
    )


def one_entry_bundle(entry: b.BundleEntry, detail: str, budget: int) -> b.ContextResult:
    """A jinja bundle of one entry at `detail` and `budget`, as the text block renders it."""
    return b.ContextResult(
        repoId="jinja",
        task="preserve __slots__ on Undefined classes",
        mode="semantic",
        retrievalPath="semantic.exact",
        detail=detail,
        budgetTokens=budget,
        totalTokens=entry.tokenCount,
        responseTokens=100,
        truncated=False,
        entries=[entry],
    )


def test_a_bundle_entrys_symbol_reason_is_in_its_text() -> None:
    """QA on jinja: at `detail: paths`, "preserve __slots__ on Undefined classes" sent
    runtime.py with the reason `symbol:jinja2.runtime.Undefined.__slots__` (a bundle keeps
    one only when its declaration is not packed: context/entry_fields.bundle_reasons), and
    the text block left it out as "in the content below": the content was the path."""
    entry = b.BundleEntry(
        path="src/jinja2/runtime.py",
        score=1.0,
        reasons=["semantic", "symbol:jinja2.runtime.Undefined.__slots__"],
        tokenCount=6,
        content="src/jinja2/runtime.py",
        units=[b.Unit(receipt="r", kind="pointer", tokenCount=6)],
    )
    header = render(one_entry_bundle(entry, "paths", 8192))[1].splitlines()[1]
    assert header == ("== src/jinja2/runtime.py [symbol:jinja2.runtime.Undefined.__slots__]")


def test_a_pointer_entry_says_its_path_once_in_the_text() -> None:
    """QA on jinja: a `detail: paths` bundle wrote each file twice, its header and then its
    content (the path again): ten paths, ten lines that told nothing."""
    entry = b.BundleEntry(
        path="src/jinja2/runtime.py",
        score=1.0,
        reasons=["semantic"],
        tokenCount=6,
        content="src/jinja2/runtime.py",
        units=[b.Unit(receipt="r", kind="pointer", tokenCount=6)],
    )
    lines = render(one_entry_bundle(entry, "paths", 8192))[1].splitlines()
    assert lines[1:] == ["== src/jinja2/runtime.py"]


def test_a_code_entrys_symbol_reason_is_left_to_the_json() -> None:
    """Beside code, the header does not repeat a kept `symbol:` reason (the JSON has it): at
    2,000 tokens, where one entry's envelope is most of the answer's, saying it again put 19
    more of the tuning half's 240 bundles over the 15 % envelope bound
    (python -m tests.bench.context_envelope)."""
    entry = b.BundleEntry(
        path="src/jinja2/runtime.py",
        score=1.0,
        reasons=["semantic", "symbol:jinja2.runtime.Undefined.__slots__"],
        tokenCount=3,
        content="x = 1",
        units=[b.Unit(receipt="r", kind="span", tokenCount=3, startLine=4, endLine=4)],
        startLine=4,
        endLine=4,
    )
    header = render(one_entry_bundle(entry, "slices", 2000))[1].splitlines()[1]
    assert header == "== src/jinja2/runtime.py:4"


def test_an_outline_line_says_a_declarations_name_once() -> None:
    """QA on axios/axios: outline of index.d.ts (354 declarations, 4,598 tokens to read
    whole) cost 7,339 tokens of text, each line `23-23 Method AxiosHeaders.set(string,
    AxiosHeaderValue,boolean|AxiosHeaderMatcher): set(headerName?: string, ...)`: the name
    and its parameter types twice and a one-line range as two numbers. A signature that
    starts with the name carries it, and one line is one number."""

    symbols = [
        declared("validators", "Field", "const validators = validator.validators;", 12, 12),
        declared("MethodsHeaders.common", "Property", "common: AxiosHeaders", 10, 10),
        declared("AxiosHeaders", "Type", "class AxiosHeaders", 16, 78),
        declared(
            "AxiosHeaders.set(string,boolean)",
            "Method",
            "set(headerName?: string, rewrite?: boolean): AxiosHeaders",
            23,
            23,
        ),
        declared("AxiosHeaders.concat(Array)#2", "Method", "static concat(...t: T[])", 45, 45),
        declared("AxiosHeaders.settle", "Method", "settleAll(x)", 50, 52),
        declared("bare", "Other", "", 60, 61),
    ]
    outline = sy.OutlineResult(
        repoId="r", path="index.d.ts", exists=True, lineCount=80, symbols=symbols
    )
    assert render(outline)[1].splitlines()[1:] == [
        "12 Field validators: const validators = validator.validators;",
        "10 Property MethodsHeaders.common: AxiosHeaders",
        "16-78 Type AxiosHeaders: class AxiosHeaders",
        "23 Method AxiosHeaders.set(headerName?: string, rewrite?: boolean): AxiosHeaders",
        "45 Method AxiosHeaders.concat(Array)#2: static concat(...t: T[])",
        "50-52 Method AxiosHeaders.settle: settleAll(x)",
        "60-61 Other bare",
    ]


def test_a_python_outline_line_says_a_declarations_name_once() -> None:
    """QA on fastapi/typer: a Python outline line said the name twice, `24-29 Method
    typer._click.exceptions.ClickException.__init__: def __init__(self, message: str) ->
    None`, and an overload's parameter types three times (its stored name, then `@overload
    def Option(...)`). The name now carries the signature past `def`/`class`, its decorators
    and `async` before it; the kind already says what `def` and `class` did."""

    symbols = [
        declared("exc.ClickException", "Type", "class ClickException(Exception)", 19, 45),
        declared("exc.ClickException.exit_code", "Field", "exit_code = 1", 22, 22),
        declared(
            "exc.ClickException.__init__", "Method", "def __init__(self, message: str)", 24, 29
        ),
        declared("exc.Plain", "Type", "class Plain", 30, 31),
        declared(
            "core.Context.lookup_default(self,str,Literal[True])",
            "Method",
            "@overload def lookup_default(self, name: str) -> Any",
            40,
            41,
        ),
        declared("core.Context.meta", "Method", "@property def meta(self) -> dict", 50, 52),
        declared("core.fetch", "Function", "async def fetch(url: str) -> bytes", 60, 62),
        declared("core.defaults", "Function", "def default_map() -> None", 70, 71),
    ]
    outline = sy.OutlineResult(
        repoId="r", path="typer/core.py", exists=True, lineCount=80, symbols=symbols
    )
    assert render(outline)[1].splitlines()[1:] == [
        "19-45 Type exc.ClickException(Exception)",
        "22 Field exc.ClickException.exit_code = 1",
        "24-29 Method exc.ClickException.__init__(self, message: str)",
        "30-31 Type exc.Plain",
        "40-41 Method @overload core.Context.lookup_default(self, name: str) -> Any",
        "50-52 Method @property core.Context.meta(self) -> dict",
        "60-62 Function async core.fetch(url: str) -> bytes",
        "70-71 Function core.defaults: def default_map() -> None",
    ]
    ts = outline.model_copy(update={"path": "index.ts"})  # other languages are as before
    assert (
        render(ts)[1].splitlines()[1]
        == "19-45 Type exc.ClickException: class ClickException(Exception)"
    )


def test_an_outline_line_says_a_quoted_property_name_once() -> None:
    """QA on unjs/unstorage: a TypeScript property with a quoted name (`"X-Auth-Email"?:
    string`, `"azure-app-configuration": AzureAppConfigurationOptions`) was written with its
    name twice, and a union's second member with the stored name's `#2`:
    `70 Property CloudflareAuthorizationHeaders.X-Auth-Email#2: "X-Auth-Email"?: string`.
    A signature starting with the quoted name carries it, as one starting with the bare name
    does."""
    symbols = [
        sy.OutlineSymbol(
            fullyQualifiedName="CloudflareAuthorizationHeaders.X-Auth-Email#2",
            kind="Property",
            signature='"X-Auth-Email"?: string',
            startLine=70,
            endLine=70,
        ),
        sy.OutlineSymbol(
            fullyQualifiedName="BuiltinDriverOptions.azure-cosmos",
            kind="Property",
            signature="'azure-cosmos': AzureCosmosOptions",
            startLine=43,
            endLine=43,
        ),
        sy.OutlineSymbol(
            fullyQualifiedName="Headers.Accept",
            kind="Property",
            signature='"Accept-Encoding": string',
            startLine=9,
            endLine=9,
        ),
    ]
    outline = sy.OutlineResult(
        repoId="r", path="src/headers.ts", exists=True, lineCount=80, symbols=symbols
    )
    assert render(outline)[1].splitlines()[1:] == [
        '70 Property CloudflareAuthorizationHeaders."X-Auth-Email"?: string',
        "43 Property BuiltinDriverOptions.'azure-cosmos': AzureCosmosOptions",
        '9 Property Headers.Accept: "Accept-Encoding": string',
    ]


def test_a_python_overloads_symbol_reasons_name_it_once_in_the_text() -> None:
    """QA on fastapi/typer: a search hit on typer/params.py read `[1; symbol:typer.params.
    Argument(Any|None,*,Callable[...,Any]|None,str|None,bool,bool,...), symbol:typer.params.
    Argument(...)#2, "symbol:typer.params.Argument(Annotated[Any|None,Doc(\\"\\"\\"By default,
    CL…,...)", content-match]`: the stored names of two overloads and the implementation,
    parameter types and docstring fragments, about 130 tokens to say `Argument` three times.
    A Python hit's text names each declaration once, without its parameters; the JSON keeps
    the stored names (a `key` to recall), and other languages' reasons are as before."""
    overloads = [
        "symbol:typer.params.Argument(Any|None,*,Callable[...,Any]|None,str|None)",
        "symbol:typer.params.Argument(Any|None,*,Callable[...,Any]|None,str|None)#2",
        'symbol:typer.params.Argument(Annotated[Any|None,Doc("""By default,CL…)',
        "symbol:typer.params.Option(Any|None,str)",
        "content-match",
    ]

    def hit(path: str) -> t.SearchHit:
        return t.SearchHit(
            score=1.0,
            entry=t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path),
            reasons=overloads,
        )

    result = t.SearchResult(
        repoId="r",
        query="q",
        mode="keyword",
        retrievalPath="keyword.no_embedder",
        hits=[hit("typer/params.py"), hit("Retrofit.java")],
    )
    lines = render(result)[1].splitlines()
    assert lines[1] == (
        "1. typer/params.py [1; symbol:typer.params.Argument, symbol:typer.params.Option, "
        "content-match]"
    )
    assert lines[2].startswith("2. Retrofit.java [1; symbol:typer.params.Argument(Any|None"), lines
    assert result.hits[0].reasons == overloads


def test_a_long_query_is_not_echoed_whole_in_the_search_text() -> None:
    """QA on unjs/unstorage: a 4,096-character query (an issue's text pasted as the search)
    was echoed whole on the text's first line, about 1,000 tokens an answer that the agent
    wrote itself; the JSON's `query` keeps it whole. The head shows its start and its length."""
    query = "storage getItem " * 256  # 4,096 characters
    result = t.SearchResult(
        repoId="r", query=query, mode="keyword", retrievalPath="keyword.no_embedder", hits=[]
    )
    structured, text = render(result)
    assert structured["query"] == query
    head = text.splitlines()[0]
    assert head.startswith("0 hits for storage getItem storage getItem")
    assert head.endswith("… (4,096 characters) in r (keyword.no_embedder)")
    assert len(head) < 250
    short = t.SearchResult(
        repoId="r", query="getItem", mode="keyword", retrievalPath="keyword.no_embedder", hits=[]
    )
    assert render(short)[1].splitlines()[0] == "0 hits for getItem in r (keyword.no_embedder)"


def test_a_related_line_names_same_named_declarations_once() -> None:
    """QA on unjs/unstorage: related of src/drivers/utils/node-fs.ts listed
    `test/drivers/fs.test.ts: additionalTests(ctx), additionalTests(ctx)#2`, two object
    methods of one name whose stored names differ by the `#2` that keeps them apart, and
    db0.test.ts's `drivers.getDB()#2`, `#3`: the text says each name once, without the
    suffix (the JSON keeps the stored names, which recall takes)."""
    tests = [
        SymbolAt(symbol="additionalTests(ctx)", path="test/drivers/fs.test.ts"),
        SymbolAt(symbol="additionalTests(ctx)#2", path="test/drivers/fs.test.ts"),
        SymbolAt(symbol="drivers.getDB()#2", path="test/drivers/db0.test.ts"),
        SymbolAt(symbol="drivers.getDB()#3", path="test/drivers/db0.test.ts"),
        SymbolAt(symbol="setup", path="test/drivers/db0.test.ts"),
    ]
    answer = sy.RelatedResult(
        repoId="r", path="src/drivers/utils/node-fs.ts", exists=True, dependents=[], tests=tests
    )
    structured, text = render(answer)
    assert text.splitlines()[3:] == [
        "tests:",
        "  test/drivers/fs.test.ts: additionalTests(ctx)",
        "  test/drivers/db0.test.ts: drivers.getDB(), setup",
    ]
    assert structured["tests"][1]["symbol"] == "additionalTests(ctx)#2"


def test_an_outline_line_of_a_ts_arrow_method_reads_as_a_call() -> None:
    """QA on unjs/unstorage: an object's arrow-function method (`getInstance: () => data`,
    `getKeys: (base?: string) => ...`) has its parameters alone as its signature, and its
    outline line read `11 Method driver.getInstance: ()`, a property typed `()`. In a TS/JS
    file the parameters follow the name; a C# method whose signature starts with a tuple
    return type keeps the `name: signature` form."""

    def outline(path: str, fq: str, sig: str, start: int, end: int) -> list[str]:
        symbol = sy.OutlineSymbol(
            fullyQualifiedName=fq, kind="Method", signature=sig, startLine=start, endLine=end
        )
        result = sy.OutlineResult(repoId="r", path=path, exists=True, symbols=[symbol])
        return render(result)[1].splitlines()[1:]

    assert outline("src/drivers/memory.ts", "driver.getInstance", "()", 11, 11) == [
        "11 Method driver.getInstance()"
    ]
    assert outline("src/kv.js", "driver.getKeys", "(base?: string)", 218, 221) == [
        "218-221 Method driver.getKeys(base?: string)"
    ]
    assert outline("src/Pair.cs", "Pair.Swap", "(int, int) Swap()", 5, 5) == [
        "5 Method Pair.Swap: (int, int) Swap()"
    ]


def test_a_cut_file_declaring_nothing_says_no_declarations_reach() -> None:
    """QA on fastapi/typer: outline of uv.lock (366,255 bytes, no declarations) read "uv.lock
    in src: 0 symbols, ...", then "text stops at line 284 of a 366,255-byte file (64 Ki
    characters stored); declarations listed to the end": which declarations? A file that
    declares nothing says how far search reads it instead."""
    cut = sy.OutlineResult(
        repoId="src",
        path="uv.lock",
        exists=True,
        symbols=[],
        truncated=True,
        truncatedAtLine=284,
        sizeBytes=366_255,
    )
    assert render(cut)[1].splitlines()[1] == (
        "text stops at line 284 of a 366,255-byte file (64 Ki characters stored); "
        "searched to the end"
    )
    partly = cut.model_copy(update={"indexedChars": 1_048_576})
    assert render(partly)[1].splitlines()[1].endswith("; search stops at character 1048576")
    declared = cut.model_copy(
        update={
            "symbols": [
                sy.OutlineSymbol(
                    fullyQualifiedName="a", kind="Field", signature="a = 1", startLine=1, endLine=1
                )
            ]
        }
    )
    assert render(declared)[1].splitlines()[1].endswith("; declarations listed to the end")


def test_a_whole_list_beside_a_cut_one_says_no_page() -> None:
    """QA on fastapi/typer: related of typer/_click/core.py (32 dependent files, 170 symbols
    cut to 100) read "tests: files 1-5 of 5, 18 of 18 symbols" over a tests list shown whole:
    the answer carries both lists' counts when one is cut, and the text said a page of the
    whole one. A list shown whole says nothing of pages; the cut one still does."""
    dependents = [SymbolAt(symbol=f"u{i}.f", path=f"u{i}.py") for i in range(3)]
    tests = [SymbolAt(symbol="test_core.test_a", path="tests/test_core.py")]
    answer = sy.RelatedResult(
        repoId="r",
        path="core.py",
        exists=True,
        dependents=dependents,
        tests=tests,
        dependentCount=7,
        dependentFiles=3,
        testCount=1,
        testFiles=1,
    )
    lines = render(answer)[1].splitlines()
    assert lines[2] == "dependents: files 1-3 of 3, 3 of 7 symbols", lines
    assert "tests:" in lines, lines


def test_a_python_outline_line_leaves_out_doc_metadata() -> None:
    """QA on fastapi/typer: typer documents its parameters PEP 727's way, `name: Annotated[str
    | None, Doc(\"\"\"...\"\"\")] = None`, and outline lines were docstrings: Typer.command's
    read `def command( self, name: Annotated[ str | None, Doc( \"\"\" The name of this
    command. \"\"\" ), ] = None, *, cls: Annotated[ type[TyperCommand] | None, Doc( \"\"\" The
    class of this command. Mainly used when [using the Click library underneath](htt…` (the
    stored signature is cut). The line leaves the Doc(...) out, and an Annotated left with
    its type alone is that type; one cut inside its Doc ends the line with its type."""

    def line(fq: str, sig: str) -> str:
        symbol = sy.OutlineSymbol(
            fullyQualifiedName=fq, kind="Function", signature=sig, startLine=1, endLine=9
        )
        outline = sy.OutlineResult(
            repoId="r", path="typer/main.py", exists=True, lineCount=9, symbols=[symbol]
        )
        return render(outline)[1].splitlines()[1]

    assert (
        line(
            "typer.main.run",
            'def run( function: Annotated[ Callable[..., Any], Doc( """ The function (it runs). '
            '""" ), ], ) -> None',
        )
        == "1-9 Function typer.main.run( function: Callable[..., Any], ) -> None"
    )
    assert line(
        "typer.main.Typer.command",
        'def command( self, name: Annotated[ str | None, Doc( """ The name of this command. '
        '""" ), ] = None, *, cls: Annotated[ type[TyperCommand] | None, Doc( """ The class of '
        "this command. Mainly used when [using the Click library underneath](htt…",
    ) == (
        "1-9 Function typer.main.Typer.command( self, name: str | None = None, *, "
        "cls: type[TyperCommand] | None …"
    )
    assert line(
        "typer.main.launch",
        "def launch( url: Annotated[ str, Doc('URL or file') ], wait: Annotated[ bool, "
        'Doc("Wait") ] = False, locate: Annotated[bool, Meta(1), Doc("x")] = False)',
    ) == (
        "1-9 Function typer.main.launch( url: str, wait: bool = False, "
        "locate: Annotated[bool, Meta(1)] = False)"
    )
    assert line("m.MyDoc", "def MyDoc(x)") == "1-9 Function m.MyDoc(x)"  # no Doc(...) call


def test_an_acknowledgement_of_every_span_of_a_file_says_every() -> None:
    """QA on fastapi/typer: a second context call acknowledged all of typer/core.py's spans
    with one receipt-less entry, and the text read `reused span typer/core.py`, as if one
    span were held."""
    every = b.Reused(path="typer/core.py", kind="span", contentHash="h")
    one = b.Reused(path="typer/core.py", kind="span", receipt="r1", contentHash="h", symbol="f")
    whole = b.Reused(path="typer/core.py", kind="file", contentHash="h")
    assert reused_line(every) == "reused every span of typer/core.py sent before"
    assert reused_line(one) == "reused span typer/core.py f"
    assert reused_line(whole) == "reused file typer/core.py"
    held = b.Reused(path="ledger.py", kind="span", contentHash="h", startLine=280, endLine=390)
    assert reused_line(held) == "reused span ledger.py lines 280-390"


def test_the_lines_a_session_holds_of_a_span_are_the_runs_it_does_not_lack() -> None:
    assert held_runs((280, 402), [(391, 402)]) == [(280, 390)]
    assert held_runs((10, 50), [(10, 12), (30, 35)]) == [(13, 29), (36, 50)]
    assert held_runs((1, 5), [(1, 5)]) == []


def test_a_go_field_declared_beside_others_is_outlined_with_its_own_name() -> None:
    """QA on go-resty/resty: `type User struct { Username, Password string }` declares two
    fields on one line, each stored with the line as its signature, and the outline read
    `163 Field resty.User.Password: Username, Password string` and `163 Field
    resty.User.Username, Password string` (a name that seemed to go on past the comma). Each
    is its own name and the type."""

    def line(fq: str, sig: str, path: str = "client.go") -> str:
        symbol = sy.OutlineSymbol(
            fullyQualifiedName=fq, kind="Field", signature=sig, startLine=163, endLine=163
        )
        outline = sy.OutlineResult(
            repoId="r", path=path, exists=True, lineCount=170, symbols=[symbol]
        )
        return render(outline)[1].splitlines()[1]

    sig = "Username, Password string"
    assert line("resty.User.Username", sig) == "163 Field resty.User.Username string"
    assert line("resty.User.Password", sig) == "163 Field resty.User.Password string"
    assert line("p.T.a", "a, b, c map[string]int") == "163 Field p.T.a map[string]int"
    # a package's `var a, b = 1, 2` pairs names with values: left as it was
    assert line("p.a", "a, b = 1, 2") == "163 Field p.a, b = 1, 2"
    # a lone field keeps its line as it was
    assert line("resty.User.Token", "Token string") == "163 Field resty.User.Token string"


def test_dependents_that_are_all_tests_are_not_written_as_more_of_a_list() -> None:
    """A file used only by its tests: on encode/uvicorn, related(uvicorn/loops/auto.py) read
    'dependents:' over '  and 1 test file, listed under tests', an "and" after nothing,
    which reads as a list cut short. The line says no source file uses it."""
    tests = [SymbolAt(symbol="test_auto.test_loop_auto", path="tests/test_auto.py")]
    answer = sy.RelatedResult(
        repoId="r", path="auto.py", exists=True, dependents=tests, tests=tests
    )
    assert render(answer)[1].splitlines()[2:4] == [
        "dependents:",
        "  no source file; 1 test file, listed under tests",
    ]
