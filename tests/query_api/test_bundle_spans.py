"""Which lines of a large file a slices bundle entry sends (query_api.context.spans)."""

from __future__ import annotations

from processors.qualified_names import qualified_names
from query_api.context.entry_fields import bundle_reasons, declared_within
from query_api.context.spans import (
    HEAD_LINES,
    MAX_SPANS,
    SPAN_CONTEXT,
    SPAN_LINES,
    hot_owner,
    select_spans,
    spelled_names,
    task_stems,
)
from streams.stores.views.symbols import SymbolRow


def sym(fq: str, kind: str, start: int, end: int) -> SymbolRow:
    name = fq.rpartition(".")[2]
    return SymbolRow("r", "f.py", fq, name, kind, start, end, "xx", name)


BLUEPRINTS = [  # the shape of flask/sansio/blueprints.py
    sym("Blueprint", "Type", 10, 400),
    sym("Blueprint._got_registered_once", "Field", 20, 20),
    sym("Blueprint.__init__", "Method", 22, 60),
    sym("Blueprint.register", "Method", 100, 130),
    sym("Blueprint.add_url_rule", "Method", 140, 170),
]


def test_the_declaration_the_task_names_comes_first_by_stem_and_kind() -> None:
    spans = select_spans(BLUEPRINTS, 500, task_stems("how are blueprints registered on the app"))
    # `registered` meets `register` (a method): its whole span, first in rank; the class is
    # too long to come second, the one-line field still fits; `__init__` names nothing asked
    assert spans == [
        (20 - SPAN_CONTEXT, 20 + SPAN_CONTEXT, "Blueprint._got_registered_once"),
        (100 - SPAN_CONTEXT, 130 + SPAN_CONTEXT, "Blueprint.register"),
    ]
    # room for one of two equally named: the method before the field
    both = [sym("REGISTRY", "Field", 10, 60), sym("registry", "Function", 100, 150)]
    assert [fq for _, _, fq in select_spans(both, 200, task_stems("registry"))] == ["registry"]


def test_a_span_is_never_cut_in_the_middle_but_the_first() -> None:
    symbols = [
        sym("refetch_queries", "Function", 10, 60),  # two words of the task
        sym("invalidate_queries_and_more", "Function", 100, 160),  # too long for what is left
        sym("invalidate", "Function", 200, 205),  # one word, small: fits
    ]
    spans = select_spans(symbols, 300, task_stems("refetch and invalidate queries"))
    assert [fq for _, _, fq in spans] == ["refetch_queries", "invalidate"]
    assert sum(z - a + 1 for a, z, _ in spans) <= SPAN_LINES
    [(a, z, fq)] = select_spans([sym("huge", "Function", 5, 500)], 600, task_stems("huge"))
    assert (a, z - a + 1, fq) == (5 - SPAN_CONTEXT, SPAN_LINES, "huge")  # its head


def test_stop_words_match_nothing_and_no_match_sends_the_head() -> None:
    symbols = [sym("on_the_fly", "Function", 50, 60)]
    assert select_spans(symbols, 400, task_stems("how is it on the page")) == [
        (1, HEAD_LINES, None)
    ]
    assert task_stems("the") == frozenset({"the"})  # a task of stop words only keeps them


def test_the_verb_of_a_change_request_chooses_no_declaration() -> None:
    """got's options.ts, "change how the retry delay is computed": `change` said what to do,
    and a function named for credential changes was sent instead of the retry options."""
    symbols = [
        sym("hasExplicitCredentialInUrlChange", "Function", 944, 947),
        sym("RetryOptions", "Type", 624, 634),
    ]
    stems = task_stems("change how the retry delay is computed")
    assert [fq for *_, fq in select_spans(symbols, 2000, stems, max_spans=1)] == ["RetryOptions"]
    assert task_stems("fix it") == frozenset({"fix"})  # a task of verbs only keeps them


def test_spans_grow_to_the_fill_and_near_ones_merge() -> None:
    small = [sym("f", "Function", 50, 52), sym("g", "Function", 60, 62)]
    got = select_spans(small, 500, task_stems("f and g"), fill_lines=40)
    # 47-55 and 57-65 are one span (a gap of a few lines costs less than a second receipt),
    # then grown evenly on both sides to the 40 lines the bundle asked for
    assert len(got) == 1 and got[0][2] == "f"
    assert got[0][1] - got[0][0] + 1 >= 40 and got[0][0] <= 47 and got[0][1] >= 65
    assert select_spans(small, 500, task_stems("f and g")) == [(47, 65, "f")]


def test_no_declaration_named_sends_the_lines_that_share_the_task_words() -> None:
    """`proto.throw` is a property of an object literal, not a declaration: the task's words
    are on line 120, and the file's first lines (its imports) say nothing about them."""
    body = [f"const dep{i} = require('dep{i}')" for i in range(1, 40)]
    body += ["  // unrelated"] * 80 + [
        "  throw (...args) {",
        "    const err = createError(...args)",
    ]
    body += ["  }"] * 100
    symbols = [sym("proto", "Field", 40, 240)]
    stems = task_stems("make ctx.throw accept an options object with expose")
    (start, end, fq) = select_spans(symbols, len(body), stems, lines=body)[0]
    assert start <= 120 <= end and end - start + 1 == HEAD_LINES and fq is None
    # nothing shares a word: the head, as before
    assert select_spans([], len(body), task_stems("zebra quokka"), lines=body) == [
        (1, HEAD_LINES, None)
    ]


def test_grown_spans_never_hold_more_than_asked() -> None:
    """Padding rounds up per side; what it adds past the lines asked for is given back, so
    a share's line count is never overrun (a cap the spans overran sent the path instead)."""
    three = [sym("alpha", "Function", 100, 110), sym("beta", "Function", 300, 305)]
    for wanted in range(20, 90, 7):
        got = select_spans(three, 1000, task_stems("alpha beta"), wanted, wanted)
        assert sum(z - a + 1 for a, z, _ in got) <= wanted, (wanted, got)


def test_a_share_above_span_lines_takes_one_more_declaration() -> None:
    names = [sym(f"refund_{i}", "Function", 100 * i + 10, 100 * i + 20) for i in range(1, 6)]
    stems = task_stems("refund")
    assert len(select_spans(names, 800, stems, SPAN_LINES)) == MAX_SPANS
    assert len(select_spans(names, 800, stems, 2 * SPAN_LINES)) == MAX_SPANS + 1


def test_a_reason_naming_a_packed_declaration_or_its_class_is_not_repeated() -> None:
    reasons = ["semantic", "symbol:pkg.Parser", "symbol:pkg.Parser.feed", "content-match"]
    # the spans show Parser.feed: neither the method nor its class is said again
    assert bundle_reasons(reasons, {"pkg.Parser.feed"}) == ["content-match"]
    # a declaration merely sharing a prefix (ParserBase) is not enclosed
    kept = bundle_reasons(["symbol:pkg.Parser"], {"pkg.ParserBase.feed"})
    assert kept == ["symbol:pkg.Parser"]


def test_an_entry_leaves_out_how_its_file_was_found() -> None:
    """`semantic`, `chunk:file` and `keyword-fused` were on every entry of a hybrid answer,
    and the answer's retrieval path says them: ten of the 118 tokens of envelope chi's
    client_ip.go cost beside its 172 tokens of code at 2,000. A file only the vectors found
    keeps `semantic`."""
    found = ["semantic", "chunk:file", "keyword-fused", "path-name-match", "symbol:a.ClientIP"]
    assert bundle_reasons(found, set()) == ["path-name-match", "symbol:a.ClientIP"]
    assert bundle_reasons(["semantic", "chunk:function"], set()) == ["semantic"]


def test_a_span_limit_keeps_the_best_declaration_only() -> None:
    # a small budget's answer asks for one declaration a file (bundle.Focus.spans)
    symbols = [sym("refetch_queries", "Function", 10, 30), sym("invalidate", "Function", 80, 90)]
    stems = task_stems("refetch and invalidate queries")
    assert [fq for _, _, fq in select_spans(symbols, 300, stems)] == [
        "refetch_queries",
        "invalidate",
    ]
    assert select_spans(symbols, 300, stems, max_spans=1) == [
        (10 - SPAN_CONTEXT, 30 + SPAN_CONTEXT, "refetch_queries")
    ]


def test_one_span_prefers_the_longer_of_equal_declarations() -> None:
    # koa's response: the `body()` getter and the `body(val)` setter both name `body`; when
    # one declaration is all a file sends, the setter shows what the task is about
    symbols = [sym("body", "Method", 124, 126), sym("body", "Method", 135, 200)]
    stems = task_stems("set the content type for a stream body")
    [(a, z, _)] = select_spans(symbols, 300, stems, max_spans=1)
    assert a <= 135 and z >= 200
    assert select_spans(symbols, 300, stems)[0][0] == 124 - SPAN_CONTEXT  # two: getter first


def test_a_type_alias_of_several_lines_ranks_as_a_type() -> None:
    """TypeScript type aliases are `Other` (the reference's kinds): one of several lines is
    a type's declaration, before a one-line property (a QA pass on sindresorhus/got sent
    `BeforeRequestHookContext.retryCount` rather than `RetryOptions`)."""
    got = [
        sym("BeforeRequestHookContext.retryCount", "Property", 10, 10),
        sym("RetryOptions", "Other", 600, 658),
        sym("RetryId", "Other", 700, 700),
    ]
    spans = select_spans(got, 800, task_stems("when to retry"), 70)
    assert [name for *_, name in spans] == ["RetryOptions"]  # the property no longer first
    one_line = [sym("RetryId", "Other", 10, 10), sym("RetryCount", "Property", 700, 700)]
    spans = select_spans(one_line, 800, task_stems("retry"), 70)
    assert [name for *_, name in spans] == ["RetryId", "RetryCount"]  # as a field would


def test_padding_given_back_never_cuts_a_declaration_at_the_files_end() -> None:
    """ky's merge.ts ends with the two-line `deepMerge` (323-324): its span can grow only
    upwards, and the lines the padding rounds up were taken off the last span's end, so
    the span named `deepMerge` stopped at 322 or 323 (above or inside it)."""
    symbols = [
        sym("isPlainObject", "Function", 80, 87),
        sym("deepMergeInternal", "Function", 207, 321),
        sym("deepMerge", "Function", 323, 324),
    ]
    stems = task_stems("Fix extend() dropping numeric retry limit when merging with an object")
    for fill in range(20, 101):
        got = select_spans(symbols, 324, stems, SPAN_LINES, fill)
        assert sum(z - a + 1 for a, z, _ in got) <= fill, (fill, got)
        for a, z, fq in got:
            declared = next(s for s in symbols if s.fq_name == fq)
            assert a <= declared.start_line and declared.end_line <= z, (fill, got)


def test_a_declaration_whose_code_the_task_describes_is_sent_though_its_name_is_not() -> None:
    """A name sharing one word of the task lost nothing to a function whose body says the
    rest: `reject carriage return in attribute names` sent the three-line
    `attribute_count`, and never `check_key`, where a fix would go. A task word a name shares
    counts twice; the words on a declaration's own lines count too (its methods' lines are
    theirs, not a class's)."""
    body = ["x = 1"] * 60
    body[9:13] = [
        "def attribute_count(attrs):",
        "    return len(attrs)",
        "",
        "",
    ]
    body[29:33] = [
        "def check_key(key):",
        "    if '\\r' in key:",
        "        raise ValueError('carriage return in an attribute name')",
        "    return key",
    ]
    symbols = [sym("attribute_count", "Function", 10, 11), sym("check_key", "Function", 30, 33)]
    stems = task_stems("reject carriage return in attribute names")
    [(start, end, fq)] = select_spans(symbols, len(body), stems, lines=body, max_spans=1)
    assert fq == "check_key" and start <= 30 and end >= 33
    # a class's own lines are its header and fields: its methods' words are theirs
    nested = [sym("Keys", "Type", 28, 40), sym("Keys.check_key", "Method", 30, 33)]
    [(_, _, fq)] = select_spans(nested, len(body), stems, lines=body, max_spans=1)
    assert fq == "Keys.check_key"


def test_a_declaration_longer_than_the_share_sends_its_lines_that_match() -> None:
    """casey/just's 450-line `Analyzer.justfile`, named by the task, was sent as its head;
    the duplicate-parameter check the request was about sat 150 lines below it."""
    body = ["    step()"] * 500
    body[43] = "def justfile(self):"
    body[199] = "    raise DuplicateParameter('duplicate function parameter')"
    symbols = [sym("Analyzer.justfile", "Method", 44, 493)]
    stems = task_stems("reject a duplicate function parameter in justfile")
    [(start, end, fq)] = select_spans(symbols, len(body), stems, 60, 60, body)
    assert fq == "Analyzer.justfile" and start <= 200 <= end and end - start + 1 == 60
    # nothing inside it shares a word past its first line: its head, as before
    plain = ["    step()"] * 500
    [(start, end, _)] = select_spans(symbols, len(plain), stems, 60, 60, plain)
    assert start == 44 - SPAN_CONTEXT and end - start + 1 == 60


def _response_base() -> tuple[list[str], list[SymbolRow], frozenset[str]]:
    """A file whose words point at `destroy_request` and whose meaning (a passage, a hit's
    lines) lies in `on_response_base`."""
    body = ["    pass"] * 80
    body[9] = "def destroy_request(req):  # destroy the response"
    body[39] = "def on_response_base(res):"
    symbols = [
        sym("destroy_request", "Function", 10, 20),
        sym("on_response_base", "Function", 40, 60),
    ]
    return body, symbols, task_stems("destroy the response stream")


RESPONSE_BASE = _response_base()


def test_the_declaration_holding_the_best_passage_counts_as_a_name() -> None:
    """The search's best passage of a file is where the task's meaning is, whatever words it
    uses: got's `Request._onResponseBase` was changed while the spans, by words, were
    `_destroy` and `_emitUploadComplete`. Its declaration counts HOT_WEIGHT more."""
    body, symbols, stems = RESPONSE_BASE
    [(_, _, fq)] = select_spans(symbols, len(body), stems, lines=body, max_spans=1)
    assert fq == "destroy_request"  # by words alone
    [(_, _, fq)] = select_spans(symbols, len(body), stems, lines=body, max_spans=1, hot=(44, 52))
    assert fq == "on_response_base"
    assert hot_owner(symbols, (44, 52)) == 1
    # a method before its class, when both hold the passage
    nested = [sym("K", "Type", 1, 80), sym("K.m", "Method", 40, 60)]
    assert hot_owner(nested, (44, 52)) == 1 and hot_owner(nested, (70, 75)) == 0
    assert hot_owner(nested, None) is None and hot_owner([], (1, 2)) is None


def test_the_declaration_the_search_hit_points_at_counts_as_a_name() -> None:
    """QA on kysely: `support IF EXISTS in DROP COLUMN` pointed the search hit at
    `visitDropColumn`, and the bundle, by words alone, sent `visitCreateTable`. The
    declaration holding the hit's lines counts HIT_WEIGHT more, and a long one is sent as
    a window at those lines."""
    body, symbols, stems = RESPONSE_BASE
    [(_, _, fq)] = select_spans(symbols, len(body), stems, lines=body, max_spans=1, hit=(44, 46))
    assert fq == "on_response_base"
    long = ["    step()"] * 500
    [(start, end, fq)] = select_spans(
        [sym("Analyzer.run", "Method", 44, 493)],
        500,
        task_stems("parse"),
        60,
        60,
        long,
        hit=(300, 302),
    )
    assert fq == "Analyzer.run" and start <= 300 and end >= 302


def test_a_long_declaration_holding_the_passage_sends_the_passages_lines() -> None:
    body = ["    step()"] * 500
    symbols = [sym("Analyzer.run", "Method", 44, 493)]
    [(start, end, fq)] = select_spans(
        symbols, 500, task_stems("parse flags"), 60, 60, body, hot=(300, 316)
    )
    assert fq == "Analyzer.run" and start <= 300 and end >= 316 and end - start + 1 == 60
    # a passage outside every declaration (module-level code) is sent by its own lines
    [(start, end, fq)] = select_spans(
        symbols, 500, task_stems("parse flags"), 60, 0, body, hot=(2, 20)
    )
    assert fq is None and start == 1 and end >= 20


def test_of_equally_matching_long_declarations_the_one_holding_the_passage_is_sent() -> None:
    """gorm's schema/field.go, "Fix nil pointer panic in serializer for nil any-type fields":
    `ParseField` (343 lines, its name shares `field`) and `setupValuerAndSetter` (540 lines,
    holding the search's best passage, lines 961-976, the very lines the commit changed)
    matched the task equally; the shorter came first, was longer than the share and sent 100
    lines from its head, and the passage's declaration was never reached. Of equals, the
    one holding the passage goes first: its window is placed at the passage."""
    body = ["    step()"] * 1011
    for line in (150, 700):  # the same task words in each: they tie
        body[line] = "    if v == nil { // a pointer to the field's type"
    symbols = [
        sym("Schema.ParseField", "Method", 106, 448),
        sym("Field.setupValuerAndSetter", "Method", 451, 990),
    ]
    stems = task_stems("Fix nil pointer panic in serializer for nil any-type fields")
    spans = select_spans(symbols, len(body), stems, 100, 80, body, hot=(961, 976))
    assert [fq for *_, fq in spans] == ["Field.setupValuerAndSetter"]
    [(start, end, _)] = spans
    assert start <= 961 and end >= 976
    # without a passage, the shorter of the equals, as before; and so when the shorter fits
    # the share whole (gorm's `CreateInBatches`, named by the task, before the passage's
    # `FindInBatches`)
    [(_, _, fq)] = select_spans(symbols, len(body), stems, 100, 80, body)
    assert fq == "Schema.ParseField"
    [(_, _, fq)] = select_spans(symbols, len(body), stems, 400, 80, body, hot=(961, 976))
    assert fq == "Schema.ParseField"


def test_the_declaration_a_qualified_name_names_is_sent_first() -> None:
    """`JsonParser.getNumberType()` names one method: the class's own lines (the Javadoc
    between its members) share more of the task's words than the method's name does, and
    another parser's `getNumberType` shares as many, yet the method named is what is sent."""
    doc = "     * Method for JSON parser number type: get the type of the number\n"
    lines = ["x"] * 900
    for number in range(305, 590):  # the class's own: in none of its members
        lines[number - 1] = doc
    symbols = [
        sym("core.JsonParser", "Type", 10, 890),
        sym("core.JsonParser.Feature", "Enum", 15, 300),
        sym("core.JsonParser.getNumberType", "Method", 600, 604),
        sym("core.util.JsonParserDelegate.getNumberType", "Method", 700, 704),
    ]
    task = "change Javadoc for `JsonParser.getNumberType()`"
    stems = task_stems(task)
    assert select_spans(symbols, 900, stems, lines=lines, max_spans=1) != [
        (600 - SPAN_CONTEXT, 604 + SPAN_CONTEXT, "core.JsonParser.getNumberType")
    ]  # by words alone: the class, windowed at its Javadoc
    spans = select_spans(
        symbols, 900, stems, lines=lines, max_spans=1, qualified=qualified_names(task)
    )
    assert spans == [(600 - SPAN_CONTEXT, 604 + SPAN_CONTEXT, "core.JsonParser.getNumberType")]


def _body_of_methods(starts: list[int], total: int) -> list[str]:
    """A file of methods whose signatures run over two lines (`def name(` then its
    parameters), each followed by a body and one blank line, as poetry's installer.py."""
    lines = ["        pass"] * total
    for start in starts:
        lines[start - 1] = f"    def m{start}("
        lines[start] = "        self, flag: bool = True"
        lines[start - 2] = ""
    return lines


def test_a_padded_span_starts_at_a_statement_not_inside_one() -> None:
    """A QA pass on poetry: a span grown to its fill started at line 125, the parameters of
    `def requires_synchronization(` on line 124, and read as broken code. A span grown by
    padding now starts after a blank line where one is near."""
    starts = [100, 110, 124, 140, 155, 170, 184, 200]
    body = _body_of_methods(starts, 260)
    symbols = [
        sym(f"C.m{s}", "Method", s, next_s - 2)
        for s, next_s in zip(starts, [*starts[1:], 250], strict=True)
    ]
    symbols.append(sym("C.lock", "Method", 155, 168))
    [(a, z, _)] = select_spans(symbols, 260, task_stems("lock"), 80, 80, lines=body)
    assert body[a - 2] == "" or a == 1, (a, body[a - 2])
    assert z - a + 1 == 80  # shifted, not cut: the lines the share holds are all sent
    assert a <= 152 and z >= 171  # the declaration and its context lines stay whole


def test_spans_merged_into_one_are_named_for_the_best_match() -> None:
    """`fix Installer._do_refresh` sent one span from `lock` through `_do_refresh` named
    `Installer.lock`, the first declaration it held in file order; the name says what the
    span is for: the declaration the task names."""
    symbols = [  # the shape of poetry's installer.py
        sym("Installer.lock", "Method", 155, 163),
        sym("Installer._do_refresh", "Method", 184, 214),
        sym("Installer._lock_fix_command", "Method", 384, 390),
    ]
    task = "poetry lock fails to refresh; fix Installer._do_refresh"
    got = select_spans(symbols, 420, task_stems(task), 174, 174, qualified=qualified_names(task))
    assert [fq for *_, fq in got] == ["Installer._do_refresh", "Installer._lock_fix_command"]


def test_a_window_inside_a_long_declaration_starts_at_a_statement() -> None:
    """A declaration longer than the file's share is sent as a window around its matched
    line, which started a few lines above that line wherever it fell (in a multi-line call, in
    a doc comment). It now starts after a blank line where one is near, the line kept."""
    body = ["" if n % 4 == 0 else f"    step({n},"[:12] for n in range(1, 421)]
    body[199] = "    frobnicate(order)"  # line 200
    [(a, z, fq)] = select_spans(
        [sym("frobnicate_all", "Function", 10, 400)], 420, task_stems("frobnicate"), 50, lines=body
    )
    assert fq == "frobnicate_all" and a <= 200 <= z and z - a + 1 == 50
    assert body[a - 2] == "", (a, body[a - 2])


def test_a_padded_span_starts_at_its_declaration_s_level_not_inside_a_docstring() -> None:
    """jinja's filters.py: a span for `do_xmlattr` began inside `do_items`' docstring, after
    one of its blank lines. A start indented no deeper than the declaration is taken first."""
    body = ["def do_items(value):", '    """Return the items.']
    for n in range(6):
        body += ["", f"    Prose paragraph {n} of the docstring,", "    over two lines."]
    body += ['    """', "    return value.items()", "", "", "def do_xmlattr(d):"]
    body += [f"    part_{n} = d.get({n})" for n in range(8)] + ["    return d", "", ""]
    body += ["def do_map(seq):"] + [f"    seq = seq.step({n})" for n in range(20)] + [""]
    start = body.index("def do_xmlattr(d):") + 1
    symbols = [
        sym("do_items", "Function", 1, start - 3),
        sym("do_xmlattr", "Function", start, start + 9),
    ]
    [(a, z, fq)] = select_spans(symbols, len(body), task_stems("xmlattr"), 24, 24, lines=body)
    assert fq == "do_xmlattr" and a <= start and z >= start + 9
    assert not body[a - 1].startswith(" ") and not body[a - 2].strip(), (a, body[a - 1])


def rust(fq: str, kind: str, start: int, end: int, signature: str) -> SymbolRow:
    name = fq.rpartition(".")[2]
    return SymbolRow("r", "src/filter/time.rs", fq, name, kind, start, end, "xx", signature)


TIME_RS = [  # the shape of sharkdp/fd's src/filter/time.rs
    rust("TimeFilter", "Enum", 6, 10, "pub enum TimeFilter"),
    rust("now()", "Function", 12, 15, "#[cfg(not(test))] fn now() -> Zoned"),
    rust("TimeFilter.from_str", "Method", 29, 47, "fn from_str(s: &str) -> Option<SystemTime>"),
    rust("tests", "Namespace", 65, 210, "#[cfg(test)] mod tests"),
    rust("tests.TestTime.timestamp", "Method", 83, 85, "fn timestamp(&self) -> SystemTime"),
    rust(
        "tests.out_of_range_unix_timestamp_is_rejected",
        "Function",
        203,
        209,
        "#[test] fn out_of_range_unix_timestamp_is_rejected()",
    ),
]


def test_a_rust_files_unit_tests_come_after_its_code() -> None:
    """fd's 'Reject out-of-range @ Unix timestamp instead of panicking': the test named for it
    and a test helper `timestamp` outscored `from_str`, whose lines the commit changed, and a
    2,000-token bundle sent only test code."""
    lines = [""] * 210
    lines[43] = "let timestamp_secs: u64 = s.strip_prefix('@')?.parse().ok()?;"
    lines[44] = "UNIX_EPOCH.checked_add(Duration::from_secs(timestamp_secs))"
    task = task_stems("Reject out-of-range Unix timestamp instead of panicking")
    spans = select_spans(TIME_RS, 210, task, lines=lines, max_spans=1)
    assert [fq for _, _, fq in spans] == ["TimeFilter.from_str"]
    # a task asking for tests gets them
    tests = task_stems("test the out-of-range Unix timestamp")
    spans = select_spans(TIME_RS, 210, tests, lines=lines, max_spans=1)
    assert [fq for _, _, fq in spans] == ["tests.out_of_range_unix_timestamp_is_rejected"]


def test_an_entry_holding_the_whole_body_names_none_of_its_declarations() -> None:
    """Every declaration a file holds is in its whole body, so a `symbol:` reason says again
    what the code shows (gin's render/pdf.go, 155 tokens, named `symbol:render.PDF`)."""
    reasons = ["semantic", "path-name-match", "symbol:render.PDF", "content-match"]
    assert bundle_reasons(reasons, set(), whole=True) == ["path-name-match", "content-match"]
    assert bundle_reasons(["symbol:render.PDF"], set(), whole=True) == ["symbol:render.PDF"]


def test_padding_stops_short_of_a_long_line() -> None:
    """QA on jquense/yup: `rEmail`'s span grew into `rUrl`'s 1,300-character regex, and
    string.ts's share then held no room for `email()`: a bundle sent the top file as its
    path. Padding stops short of a line of more than LONG_LINE_CHARS; a declaration's own
    long line is still sent."""
    pattern = "/^(" + "[a-z0-9]" * 150 + ")$/"
    body = ["let rEmail =", "  /^[a-z]+@[a-z]+$/;", "", "", "let rUrl =", "  " + pattern + ";", ""]
    body += ["export class StringSchema {"] + [f"  step{n}() {{}}" for n in range(30)]
    start = len(body) + 1
    body += ["  email(message) {", "    return this.matches(rEmail, message);", "  }", "}"]
    symbols = [
        sym("rEmail", "Other", 1, 2),
        sym("rUrl", "Other", 5, 6),
        sym("StringSchema", "Type", 8, len(body)),
        sym("StringSchema.email", "Method", start, start + 2),
    ]
    spans = select_spans(symbols, len(body), task_stems("email"), 40, 40, lines=body)
    assert all(not (a <= 6 <= z) for a, z, _ in spans), spans
    assert any(fq == "StringSchema.email" for _, _, fq in spans), spans
    own = select_spans(symbols, len(body), task_stems("rUrl"), 40, 40, lines=body)
    assert any(a <= 6 <= z for a, z, _ in own), own  # its own line


def test_a_users_task_is_sent_the_declarations_using_the_name() -> None:
    """QA on jquense/yup: `what calls formatError` sent locale.ts's `MixedLocale` interface,
    whose imports above it hold `ValidationError`, beside `notType`, the one function calling
    `ValidationError.formatError`. The declarations using the name are sent; the name's own
    declaration and those sharing only words with it are not."""
    body = ["import ValidationError from './ValidationError';", ""]
    body += ["export interface MixedLocale {", "  notType?: Message;", "}", ""]
    body += ["export function formatError(params) {", "  return params;", "}", ""]
    body += [f"export const filler{n} = {n};" for n in range(60)]
    start = len(body) + 1
    body += ["export function notType(params) {"]
    body += ["  return ValidationError.formatError(mixed.notType, params);", "}"]
    symbols = [
        sym("MixedLocale", "Interface", 3, 5),
        sym("formatError", "Function", 7, 9),
        sym("notType", "Function", start, start + 2),
    ]
    stems = task_stems("what calls formatError")
    by_words = [fq for *_, fq in select_spans(symbols, len(body), stems, 20, 0, body)]
    assert "notType" in by_words and len(by_words) > 1, by_words  # the defect, by words alone
    users = select_spans(symbols, len(body), stems, 20, 0, body, used_name="formatError")
    assert [fq for *_, fq in users] == ["notType"], users
    # no declaration using the name: the words choose, as before
    alone = select_spans(symbols[:2], len(body), stems, 20, 0, body, used_name="formatError")
    assert alone == select_spans(symbols[:2], len(body), stems, 20, 0, body), alone


def test_a_window_of_a_few_lines_holds_the_matched_line() -> None:
    """QA on hyperium/hyper: a 300-token answer sent headers.rs's lines 50-51, the head of
    the function after `te_is_trailers`: its two-line window was placed LEAD_LINES above the
    matched line, then shifted LEAD_LINES down. A window too small for LEAD_LINES keeps fewer
    above the line, and the line."""
    body = ["// headers"] + [f"    let x{n} = {n};" for n in range(1, 41)]
    body += ["}", "", '#[cfg(feature = "http1")]']  # 42-44
    body += ["pub(super) fn te_is_trailers(headers: &HeaderMap) -> bool {"]  # 45
    body += ['    header_value_list_has(headers, "trailers")', "}", ""]  # 46-48
    body += ['#[cfg(feature = "http1")]', "fn header_value_list_has(v: Iter, n: &str) -> bool {"]
    body += ["    true", "}"]
    symbols = [
        sym("connection_has", "Function", 1, 42),
        sym("te_is_trailers", "Function", 44, 47),
        sym("header_value_list_has", "Function", 49, 52),
    ]
    stems = task_stems("te_is_trailers")
    [(a, z, fq)] = select_spans(symbols, len(body), stems, 2, 0, body, max_spans=1)
    assert fq == "te_is_trailers" and a <= 45 <= z, (a, z, body[a - 1 : z])


def test_a_callers_task_is_sent_the_declarations_calling_the_name() -> None:
    """QA on gorilla/mux: `what calls Route.URL` sent `schemeMatcher.Match` for its
    `r.URL.Scheme`, a field of http.Request of the same name. A method's users call it."""
    body = ["func (m schemeMatcher) Match(r *http.Request) bool {", "  return r.URL.Scheme != ''"]
    body += ["}", ""] + [f"var filler{n} = {n}" for n in range(40)] + [""]
    start = len(body) + 1
    body += ["func build(route *Route) string {", "  u, _ := route.URL('id', '1')", "  return u"]
    body += ["}"]
    symbols = [
        sym("schemeMatcher.Match", "Method", 1, 3),
        sym("build", "Function", start, start + 3),
    ]
    stems = task_stems("what calls Route.URL")
    words = select_spans(symbols, len(body), stems, 20, 0, body, used_name="URL")
    assert [fq for *_, fq in words] == ["schemeMatcher.Match", "build"], words  # by the word
    calls = select_spans(symbols, len(body), stems, 20, 0, body, used_name="URL", used_calls=True)
    assert [fq for *_, fq in calls] == ["build"], calls


def test_a_window_holds_the_hit_and_the_passage_where_both_fit() -> None:
    """QA on react-hook-form: `where is setValue defined` pointed its hit at `const setValue`
    (1075) inside the 2,000-line createFormControl and the vectors' passage at `setValues`
    below it (1086-1115); the window opened at the passage and the bundle sent 1078-1185,
    without the line the search showed. Both go in one window where they fit; far apart,
    the passage's window is sent as before."""
    body = ["    step()"] * 500
    symbols = [sym("create_form_control", "Function", 2, 499)]
    stems = task_stems("where is set value defined")

    def window(hit: tuple[int, int]) -> tuple[int, int]:
        [(start, end, _)] = select_spans(symbols, 500, stems, 60, 0, body, hot=(300, 316), hit=hit)
        return start, end

    start, end = window((290, 292))
    assert start <= 290 and end >= 316
    start, end = window((100, 102))
    assert start > 102 and start <= 300 and end >= 316


def test_a_passage_outside_every_declaration_counts_its_words_and_the_hit() -> None:
    """QA on axios: `where is the User-Agent header set` pointed the search hit and the
    vectors' passage at http.js 284-288, inside a callback no declaration holds, and the
    one span a 2,000-token answer sends was `setProxy`, which says `set` in its name and
    `headers` in its body. The passage counts the task's words on its lines, and the hit
    when it points there too, as a declaration counts its own."""
    body = ["    step()"] * 200
    body[20] = "function setProxy(options, configProxy) {"
    body[24] = "    options.headers.host = options.hostname + (options.port ? ':' + port : '');"
    body[109] = "    // Set User-Agent (required by some servers)"
    body[111] = "    headers.set('User-Agent', 'axios/' + VERSION, false);"
    symbols = [sym("setProxy", "Function", 21, 60)]
    stems = task_stems("where is the User-Agent header set")
    [(start, end, fq)] = select_spans(
        symbols, 200, stems, 60, 0, body, 1, hot=(108, 114), hit=(110, 112)
    )
    assert fq is None and start <= 110 and end >= 112


def test_a_window_holding_a_declarations_first_line_shows_it() -> None:
    """A span around no declaration shows those whose first lines it holds: their
    `symbol:` reasons say again what the code shows (gin's render/data.go:5-31)."""
    rows = [sym("render.Data", "struct", 5, 9), sym("render.Data.Render", "method", 11, 20)]
    rows.append(sym("render.Data.WriteContentType", "method", 22, 26))
    assert declared_within(rows, [(5, 21)]) == {"render.Data", "render.Data.Render"}
    assert declared_within(rows, [(12, 30)]) == {"render.Data.WriteContentType"}
    assert declared_within(rows, []) == set()
    reasons = ["path-name-match", "symbol:render.Data.Render"]
    assert bundle_reasons(reasons, declared_within(rows, [(5, 21)])) == ["path-name-match"]


def test_a_method_the_task_writes_as_code_is_sent_not_the_constructor() -> None:
    """QA on apache/commons-collections: 'Synchronize forEach() in SynchronizedCollection'
    sent the static factory `synchronizedCollection` (its name shares two task words), not
    `forEach`, where the commit was; the class's name, written too, names the file, and
    says nothing of its constructor."""
    rows = [
        sym("c.SynchronizedCollection", "Type", 30, 200),
        sym("c.SynchronizedCollection.synchronizedCollection", "Method", 60, 64),
        sym("c.SynchronizedCollection.SynchronizedCollection", "Method", 80, 84),
        sym("c.SynchronizedCollection.forEach", "Method", 150, 155),
        sym("c.SynchronizedCollection.isEmpty", "Method", 160, 165),
    ]
    body = [f"    // line {n}" for n in range(1, 201)]
    body[61] = "        return new SynchronizedCollection<>(collection);"
    body[151] = "        synchronized (lock) { decorated().forEach(action); }"
    task = "Synchronize forEach() in SynchronizedCollection"
    assert spelled_names(task) == {"forEach", "SynchronizedCollection"}
    chosen = select_spans(
        rows, 200, task_stems(task), 20, lines=body, max_spans=1, spelled=spelled_names(task)
    )
    assert [fq for *_, fq in chosen] == ["c.SynchronizedCollection.forEach"], chosen
