"""Ranking properties of keyword search that a change request relies on: the source file that
does the work ranks above the tests, docs and changelogs that repeat the request's words,
unless the request asks for those; a file the request names ranks first."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.path_roles import is_type_declarations
from processors.query_mentions import joined_spellings, named_file_names
from processors.query_scope import without_commit_type
from streams.stores.views.handlers import default_registry
from streams.stores.views.named_files import module_named_files
from streams.stores.views.search import declared_symbols, keyword_hits
from streams.stores.views.store import ViewStore
from tests.streams.symbol_records import records

PAGER = "def echo_via_pager(text):\n    pager = find_pager()\n    return pager.write(text)\n"
PAGER_TEST = "".join(
    f"def test_pager_{i}():\n"
    "    # the pager writes text via the pager\n"
    "    assert echo_via_pager('x')\n"
    for i in range(8)
)
CHANGELOG = "- the pager writes text\n" * 6


@pytest.fixture
def store(tmp_path: Path) -> ViewStore:
    store = ViewStore(tmp_path / "views.db", default_registry())
    files = {
        "src/click/termui.py": PAGER,
        "tests/test_termui.py": PAGER_TEST,
        "CHANGES.md": CHANGELOG,
        "docs/utils.md": "Use the pager to write text.\n" * 4,
        "src/click/core.py": "class Command:\n    def invoke(self, ctx):\n        return ctx\n",
        "examples/pager/pager.py": "from click import echo_via_pager\necho_via_pager('pager')\n",
    }
    store.apply([rec for path, body in files.items() for rec in records(path, body)], {})
    return store


def ranked(store: ViewStore, query: str) -> list[str]:
    return [hit.path for hit in keyword_hits(store, "r", query, 10)]


def ranked_over(tmp_path: Path, files: dict[str, str], *queries: str) -> list[list[str]]:
    """Each query's ranking over a views store holding `files` (path -> body)."""
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in files.items() for rec in records(path, body)], {})
        return [ranked(store, query) for query in queries]


def test_the_subject_file_outranks_its_tests_docs_and_examples(store: ViewStore) -> None:
    order = ranked(store, "the pager writes text")
    assert order[0] == "src/click/termui.py", order
    for other in ("tests/test_termui.py", "CHANGES.md", "docs/utils.md"):
        assert order.index(other) > 0


def test_a_query_about_tests_lets_tests_rank(store: ViewStore) -> None:
    order = ranked(store, "add tests for the pager writes text")
    assert order[0] == "tests/test_termui.py", order


def test_a_query_about_docs_lets_docs_rank(store: ViewStore) -> None:
    order = ranked(store, "document how to use the pager to write text")
    assert order.index("docs/utils.md") < order.index("tests/test_termui.py"), order


def test_a_named_file_ranks_first_whatever_its_role(store: ViewStore) -> None:
    assert ranked(store, "tests/test_termui.py")[0] == "tests/test_termui.py"
    assert ranked(store, "CHANGES.md")[0] == "CHANGES.md"


def test_a_file_looked_up_by_its_compound_name_ranks_first_whatever_its_role(
    tmp_path: Path,
) -> None:
    """An agent looking a class up by name (`WithParameterSupplier`, a test's class) gets its
    file first; the same name inside a sentence is a change request's word."""
    supplier = "class ParameterSupplier:\n    def supply(self, parameter):\n        return []\n"
    files = {
        "src/theories/parameter_supplier.py": supplier * 3,
        "src/theories/assignments.py": "def parameter_supplier(with_parameter):\n    return 1\n",
        "tests/theories/with_parameter_supplier.py": (
            "class WithParameterSupplier:\n    def test_supplies(self):\n        assert True\n"
        ),
    }
    lookup, sentence = ranked_over(
        tmp_path, files, "WithParameterSupplier", "fix the parameter supplier with defaults"
    )
    assert lookup[0] == "tests/theories/with_parameter_supplier.py", lookup
    assert sentence[0] != "tests/theories/with_parameter_supplier.py", sentence


def test_a_lone_name_a_source_declares_ranks_that_source_above_files_named_for_it(
    tmp_path: Path,
) -> None:
    """`find_route` looked up: the source declaring it comes before the test named for it
    (`find-route.test.js` is a test of the thing, not the thing) and an example named so."""
    files = {
        "lib/route.js": "function find_route(method, url) {\n  return null\n}\n",
        "test/find-route.test.js": "test('find_route finds a route', () => find_route())\n" * 4,
        "examples/find_route.js": "const { find_route } = require('../lib/route')\n" * 2,
    }
    (order,) = ranked_over(tmp_path, files, "find_route")
    assert order[0] == "lib/route.js", order
    assert order.index("examples/find_route.js") < order.index("test/find-route.test.js"), order


def test_the_file_the_query_calls_by_name_is_lifted(store: ViewStore) -> None:
    order = ranked(store, "invoke in core")
    assert order[0] == "src/click/core.py", order


def test_a_module_index_file_is_called_by_its_folder(tmp_path: Path) -> None:
    files = {
        "src/middleware/cors/index.ts": "export const handler = (opts) => opts.origin\n",
        "src/middleware/cors/index.test.ts": "test('cors', () => handler({origin: 'cors'}))\n",
        "src/middleware/etag/index.ts": "export const handler = (opts) => opts.weak\n",
        "src/helper/origin.ts": "export const handler = (opts) => opts.origin\n",
    }
    [order] = ranked_over(tmp_path, files, "cors handler origin option")
    assert order[0] == "src/middleware/cors/index.ts", order


def test_a_quoted_type_name_ranks_its_declaration_first(tmp_path: Path) -> None:
    """`Ignore` in backticks names the struct, though the word fills a sibling file's body."""
    walker = "".join(f"fn ignore_{i}(path: &Path) -> bool {{ ignore(path) }}\n" for i in range(9))
    files = {
        "crates/ignore/src/dir.rs": "pub struct Ignore {\n    parent: Option<usize>,\n}\n",
        "crates/ignore/src/walk.rs": walker + "// skip ignored files, use the ignore rules\n",
    }
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in files.items() for rec in records(path, body)], {})
        assert ranked(store, "use named fields in `Ignore`")[0] == "crates/ignore/src/dir.rs"


def test_the_verbs_of_a_change_request_do_not_pick_its_files(tmp_path: Path) -> None:
    """`Clean up StringBuilder use` is about the builder code, not a Cleaner class."""
    files = {
        "src/safety/cleaner.py": (
            "class Cleaner:\n    def clean(self, doc):\n        return self.clean_up(doc)\n\n"
            "    def clean_up(self, doc):\n        # clean up: use the safe list\n"
            "        return doc\n"
        ),
        "src/helper/url_builder.py": (
            "def build(parts):\n    out = StringBuilder()\n"
            + "".join(f"    out.append(parts[{i}], sep)\n" for i in range(2))
            + "    return out.to_string()\n"
        ),
        "src/other.py": "def unrelated():\n    return 1\n",
    }
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in files.items() for rec in records(path, body)], {})
        assert ranked(store, "Clean up StringBuilder use")[0] == "src/helper/url_builder.py"


def test_symbol_reasons_name_no_declaration_for_a_stop_word(tmp_path: Path) -> None:
    """`where is the flag parsed`: a file's `is_switch` shares only the stop word `is` with
    the query and is no reason; `parse_flag` is."""
    body = "def is_switch():\n    return True\n\ndef parse_flag(text):\n    return text\n"
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply(records("src/flags.py", body), {})
        hits = keyword_hits(store, "r", "where is the flag parsed", 10)
        reasons = [r for r in hits[0].reasons if r.startswith("symbol:")]
        assert reasons == ["symbol:src.flags.parse_flag"], hits[0].reasons


def test_the_scope_a_request_opens_with_lifts_the_files_inside_it(tmp_path: Path) -> None:
    """`fix(complete): ...` names clap_complete/, though a sibling crate's file says `quote`,
    `value` and even `complete` more often."""
    line = "fn quote_value_{}(v: &str) -> String {{ complete(v) }}\n"
    builder = "".join(line.format(i) for i in range(4))
    files = {
        "clap_builder/src/util/escape.rs": builder + "// quote the value\n",
        "clap_complete/src/shells/bash.rs": "fn quote_value(v: &str) -> String { escape(v) }\n"
        "// the value\n",
    }
    plain, scoped = ranked_over(
        tmp_path, files, "quote the value", "fix(complete): quote the value"
    )
    assert plain[0] == "clap_builder/src/util/escape.rs", plain
    assert scoped[0] == "clap_complete/src/shells/bash.rs", scoped


def test_who_wrote_a_pasted_commit_message_does_not_pick_its_files(tmp_path: Path) -> None:
    """A commit message asked verbatim names its co-authors; .mailmap and AUTHORS-like
    files that list them are not where the change goes."""
    files = {
        "src/tox/tox_env/python/api.py": "def match_free_threaded(spec):\n    return spec\n",
        "src/tox/tox_env/python/people.py": "# Claude Opus Bernat Gabor\nNAMES = []\n",
        ".mailmap": "Claude Opus <noreply@anthropic.com>\nBernat Gabor <gaborjbernat@gmail.com>\n",
    }
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in files.items() for rec in records(path, body)], {})
        order = ranked(
            store,
            "feat(python): match free threaded builds (#3986) "
            "Co-authored-by: Claude Opus <noreply@anthropic.com>",
        )
    assert order[0] == "src/tox/tox_env/python/api.py", order
    assert ".mailmap" not in order, order


def test_a_name_the_request_spells_lifts_the_file_that_uses_it(tmp_path: Path) -> None:
    """`RIPGREP_CONFIG_PATH` is declared nowhere (an environment variable); the short file that
    reads it is where the change goes, though a long one says `config` and `path` more often."""
    long_file = "".join(
        f"fn config_path_{i}(path: &Path) -> Config {{ config(path) }}\n" for i in range(6)
    )
    files = {
        "crates/core/flags/hiargs.rs": long_file
        + "// ripgrep: set the config path when it is not set\n",
        "crates/core/flags/startup.rs": 'fn args() { env::var_os("RIPGREP_CONFIG_PATH") }\n'
        "// when it is not set\n",
    }
    plain, spelled = ranked_over(
        tmp_path,
        files,
        "message when the ripgrep config path is not set",
        "message when RIPGREP_CONFIG_PATH is not set",
    )
    assert plain[0] == "crates/core/flags/hiargs.rs", plain
    assert spelled[0] == "crates/core/flags/startup.rs", spelled


def test_a_name_spelled_run_together_in_code_is_found(tmp_path: Path) -> None:
    """`FastDoubleParser` in a request is `fastdoubleparser` in a Java import: one token the
    name's words never match, so the file importing the library ranks by that token too."""
    files = {
        "src/io/BigDecimalParser.java": (
            "import ch.randelshofer.fastdoubleparser.JavaBigDecimalParser;\n"
            "class BigDecimalParser { BigDecimal parse(char[] chars) { return null; } }\n"
        ),
        "src/io/NumberInput.java": "".join(
            f"class NumberInput{i} {{ double parseDouble(Parser parser, boolean fast) {{ }} }}\n"
            for i in range(4)
        ),
    }
    for i in range(8):  # the name's words are common, its run-together spelling is not
        files[f"src/util/Util{i}.java"] = "class Util { double fast; Parser parser; }\n"
    [order] = ranked_over(tmp_path, files, "uptake FastDoubleParser")
    assert order[0] == "src/io/BigDecimalParser.java", order


def test_joined_spellings_of_the_names_a_request_writes() -> None:
    assert joined_spellings("uptake FastDoubleParser; set RIPGREP_CONFIG_PATH") == [
        "fastdoubleparser",
        "ripgrepconfigpath",
    ]
    assert joined_spellings("the parser is fast") == []


def test_the_file_names_a_request_writes() -> None:
    assert named_file_names("TypedPath and v-for in Content-Disposition; toJSONSchema") == {
        "typedpath",
        "vfor",
        "contentdisposition",
        "tojsonschema",
    }
    assert named_file_names("the typed path is fast") == frozenset()
    # a scope names a folder (query_scope), not a file: `server-renderer/index.js` is no hit
    assert named_file_names("fix(server-renderer): reject CR in attribute-names") == {
        "attributenames"
    }


def test_a_word_quoted_as_code_lifts_the_file_that_uses_it(tmp_path: Path) -> None:
    """h3's `fallthrough` option is read in utils/static.ts; the router's files say "next",
    "handler" and "fall" more often. Unquoted, the word is English and lifts nothing."""
    files = {
        f"src/router/route{i}.ts": "export function route(event, next) {\n"
        "  // fall to the next handler when no route matches\n"
        "  return next(event)\n}\n"
        for i in range(3)
    }
    files["src/utils/static.ts"] = (
        "export function serveStatic(event, options) {\n"
        "  if (options.fallthrough) { return }\n  throw notFound(event)\n}\n"
    )
    plain, quoted = ranked_over(
        tmp_path,
        files,
        "fall through to the next handler when fallthrough is set",
        "fall through to the next handler when `fallthrough` is set",
    )
    assert plain[0].startswith("src/router/"), plain
    assert quoted[0] == "src/utils/static.ts", quoted


def test_a_name_every_file_spells_lifts_none_of_them(tmp_path: Path) -> None:
    """A name more than MAX_MENTIONED_FILES files use points nowhere: the order stays BM25's."""
    files = {f"src/m{i}.py": "def run(ctx):\n    return self_check(ctx)\n" for i in range(12)}
    files["src/core.py"] = "def run(ctx):\n    return ctx\n" * 3 + "# self check\n"
    plain, spelled = ranked_over(
        tmp_path, files, "run the self check ctx", "run the self_check ctx"
    )
    assert spelled == plain


GRAMMAR = "%token FOREACH REDUCE\nTerm: FOREACH Term AS Patterns '(' Exp ';' Exp ')' { foreach }\n"
BISON_OUTPUT = "/* A Bison parser, made by GNU Bison 3.8.2.  */\n" + (
    "case 42: /* Term: FOREACH Term AS Patterns '(' Exp ';' Exp ')' */\n"
    "  { yyval = gen_foreach(Term, Patterns, Exp); } /* foreach reduce */\n" * 12
)


def test_a_generated_parser_ranks_below_its_grammar(tmp_path: Path) -> None:
    """Bison's output repeats the grammar's words many times over, but a change to the
    language goes into the grammar; asked for the generated file, it may lead again."""
    store = ViewStore(tmp_path / "views.db", default_registry())
    files = {"src/parser.y": GRAMMAR, "src/parser.c": BISON_OUTPUT}
    store.apply([rec for path, body in files.items() for rec in records(path, body)], {})
    assert ranked(store, "foreach term patterns exp") == ["src/parser.y", "src/parser.c"]
    assert ranked(store, "regenerate the foreach term patterns exp")[0] == "src/parser.c"


def test_a_file_called_by_a_compound_name_the_query_writes_is_lifted(tmp_path: Path) -> None:
    """`TypedPath` names typed_path.rs (a derive macro's implementation, which declares no
    TypedPath): it ranks after the file declaring TypedPath and above a longer file that
    repeats the name's words; `v-for` names vFor.ts. A test file so named is not lifted, and
    the words scattered over a sentence lift nothing."""
    macro = "fn expand(attrs: Attrs) -> TokenStream {\n    parse_segments(attrs.path)\n}\n"
    words = "// a typed path conflicts with optional parts: typed path, path, typed\n" * 6
    transform = "export const transformFor = createStructuralDirectiveTransform('for')\n"
    vnode = "// the v-for lifecycle of a vnode: for each vnode, preserve the lifecycle\n" * 6
    files = {
        "axum-macros/src/typed_path.rs": macro,
        "axum-extra/src/routing/typed.rs": "pub trait TypedPath {\n    const PATH: &str;\n}\n",
        "axum/src/extract/path/mod.rs": "pub struct Path;\n" + words,
        "axum-macros/tests/typed_path.rs": macro + "#[test]\nfn typed_path() {}\n" * 4,
        "packages/compiler-core/src/transforms/vFor.ts": transform,
        "packages/runtime-core/src/vnode.ts": vnode,
    }
    typed, v_for, scattered = ranked_over(
        tmp_path,
        files,
        "TypedPath conflicts with optional parts",
        "preserve vnode lifecycle in stable v-for",
        "the typed path conflicts with optional parts",
    )
    assert typed[:2] == ["axum-extra/src/routing/typed.rs", "axum-macros/src/typed_path.rs"], typed
    assert typed.index("axum-macros/tests/typed_path.rs") > 2, typed
    assert v_for[0] == "packages/compiler-core/src/transforms/vFor.ts", v_for
    assert scattered.index("axum/src/extract/path/mod.rs") < scattered.index(
        "axum-macros/src/typed_path.rs"
    ), scattered


def test_a_test_named_for_the_name_follows_its_subject_when_tests_are_asked_for(
    tmp_path: Path,
) -> None:
    """axios: `tests for buildFullPath` put buildFullPath.spec.js 8th, behind four committed
    bundles that declare `buildFullPath` too (they took the written-name tier) and files that
    repeat `build`. A test named for the name ranks just below the file declaring it when
    the request asks for tests; a bundle declaring the name keeps the tier only when no
    source declares it."""
    source = "export default function buildFullPath(baseURL, requestedURL) {\n  return x\n}\n"
    bundle = "function buildFullPath(baseURL, requestedURL) { return x }\n" + (
        "function build(config) { return buildURL(config) }\n" * 20
    )
    spec = "describe('helpers::buildFullPath', () => {\n  it('combines URLs', () => {})\n})\n"
    files = {
        "lib/core/buildFullPath.js": source,
        "dist/axios.js": bundle,
        "dist/node/axios.cjs": bundle,
        "lib/helpers/build.js": "// build the full path of a request\n" * 8,
        "test/specs/core/buildFullPath.spec.js": spec,
        "proto/gen/only.pb.js": (
            "// Code generated by protoc. DO NOT EDIT.\nfunction onlyGen() {}\n"
        ),
    }
    tests, change, generated = ranked_over(
        tmp_path, files, "tests for buildFullPath", "fix buildFullPath", "rename onlyGen"
    )
    assert tests[:2] == ["lib/core/buildFullPath.js", "test/specs/core/buildFullPath.spec.js"]
    assert change[0] == "lib/core/buildFullPath.js", change
    assert change.index("test/specs/core/buildFullPath.spec.js") > 1, change
    assert generated[0] == "proto/gen/only.pb.js", generated


def test_a_rust_module_named_ranks_its_file_not_the_file_loading_it(tmp_path: Path) -> None:
    """fd's main.rs says `mod hyperlink;` and `mod regex_helper;`: it ranked first for
    `hyperlink` and `regex_helper`, above the modules' own files; filter.rs's `mod time;`
    loads src/filter/time.rs."""
    main = "mod hyperlink;\nmod regex_helper;\nmod filter;\n\nfn main() {\n    run();\n}\n"
    files = {
        "src/main.rs": main + "// uses hyperlink and regex_helper\n" * 3,
        "src/hyperlink.rs": "pub struct PathUrl;\nimpl PathUrl {\n    pub fn new() {}\n}\n",
        "src/regex_helper.rs": "pub fn pattern_has_uppercase_char() -> bool {\n    true\n}\n",
        "src/filter.rs": "pub mod time;\npub use time::TimeFilter;\n",
        "src/filter/time.rs": "pub enum TimeFilter {\n    Before,\n}\n",
    }
    hyperlink, helper, time = ranked_over(tmp_path, files, "hyperlink", "regex_helper", "`time`")
    assert hyperlink[0] == "src/hyperlink.rs", hyperlink
    assert helper[0] == "src/regex_helper.rs", helper
    assert time[0] == "src/filter/time.rs", time


def test_a_path_written_in_a_sentence_names_its_file(tmp_path: Path) -> None:
    """bubbletea: `in examples/simple/main.go make the countdown start at 10` ranked the
    example 22nd; unstorage: `fs.test.ts ignore dot-prefix` ranked the test third. A path
    or a file name with a language's extension written in a request names that file."""
    countdown = "package tea\n\n// countdown: make the countdown start, tick the countdown\n"
    files = {
        "examples/simple/main.go": "package main\n\nfunc main() {\n    n := 5\n}\n",
        "commands.go": countdown * 4,
        "test/drivers/fs.test.ts": "it('reads', () => {})\n",
        "src/drivers/fs.ts": "// ignore a dot-prefix: dot files, prefix ignore\n" * 4,
    }
    example, spec, version = ranked_over(
        tmp_path,
        files,
        "in examples/simple/main.go make the countdown start at 10",
        "fs.test.ts ignore dot-prefix",
        "e.g. bump v1.2.3 of the countdown",
    )
    assert example[0] == "examples/simple/main.go", example
    assert spec[0] == "test/drivers/fs.test.ts", spec
    assert version[0] == "commands.go", version


def test_a_build_file_written_in_a_sentence_names_it(tmp_path: Path) -> None:
    """resty: `bump the go version in go.mod` did not find go.mod at all (`mod` is no
    language's extension, and every .go file matched "go"); a build file's name (go.mod,
    tox.ini) written in a request names it as a source file's would."""
    client = "package resty\n\n// the go version this client reports: go version, version\n"
    files = {
        "go.mod": "module github.com/go-resty/resty/v2\n\ngo 1.20\n",
        "client.go": client * 4,
        "version.go": "package resty\n\n// Version is the go version\nconst Version = 1\n",
        "tox.ini": "[tox]\nenv_list = py311\n",
    }
    gomod, tox = ranked_over(
        tmp_path, files, "bump the go version in go.mod", "add py312 to tox.ini envs"
    )
    assert gomod[0] == "go.mod", gomod
    assert tox[0] == "tox.ini", tox


def test_a_file_declaring_the_name_gains_nothing_more_for_being_named_after_it(
    tmp_path: Path,
) -> None:
    """A Java file is named after its class: declaring `JsonSyntaxException` already puts
    JsonSyntaxException.java in the written-name tier, and its name adds nothing, so BM25
    orders it among the other files declaring a name the request writes."""
    exception = "public class JsonSyntaxException extends RuntimeException {}\n"
    adapters = (
        "class TypeAdapters {\n  static AtomicLongArray read(JsonReader in) {\n"
        + "    // a null element of an AtomicLongArray throws JsonSyntaxException\n" * 5
        + "  }\n}\nclass AtomicLongArray {}\n"
    )
    files = {"src/JsonSyntaxException.java": exception, "src/TypeAdapters.java": adapters}
    [order] = ranked_over(
        tmp_path, files, "Throw JsonSyntaxException for a null AtomicLongArray element"
    )
    assert order[0] == "src/TypeAdapters.java", order


def test_a_typescript_declarations_hub_ranks_below_the_code_unless_types_are_asked(
    tmp_path: Path,
) -> None:
    """nitro's types/config.ts documents every option (`buildDir`, `compatibilityDate`), so
    a request naming an option meets all its words there; the change goes into the code
    that reads the option. A request about the types themselves still finds them first."""
    declarations = "".join(
        f"export interface Options{i} {{\n  /** the build dir of the task runner */\n"
        "  buildDir: string\n}\n"
        for i in range(2)
    )
    code = (
        "// run a task with the build dir option\n"
        "export function runTask(options) {\n  return resolve(options.buildDir, 'task')\n}\n"
    )
    files = {"src/types/config.ts": declarations, "src/cli/task/run.ts": code}
    plain, typed = ranked_over(
        tmp_path,
        files,
        "respect the build dir option for the task runner",
        "fix the types of the build dir option for the task runner",
    )
    assert plain[0] == "src/cli/task/run.ts", plain
    assert typed[0] == "src/types/config.ts", typed


@pytest.mark.parametrize(
    ("path", "declarations"),
    [
        ("src/types.ts", True),
        ("types/request.d.ts", True),
        ("src/types/h3.ts", True),
        ("cloudflare/types.wrangler.ts", True),
        ("src/types.py", False),
        ("src/typeGuards.ts", False),
        ("src/index.ts", False),
        ("src/attr/validators.pyi", True),
        ("src/attr/validators.py", False),
    ],
)
def test_which_files_are_type_declarations(path: str, declarations: bool) -> None:
    assert is_type_declarations(path) is declarations


def test_the_file_names_a_pasted_paragraph_writes_are_bounded() -> None:
    names = named_file_names(" ".join(f"step-{i}-done" for i in range(20_000)))
    assert len(names) == 16


PARSER_METHOD = "    public NumberType getNumberType() {{ return {0}; }}\n"
PARSERS = {
    "core/JsonParser.java": (
        "public abstract class JsonParser {\n" + PARSER_METHOD.format("null") + "}\n"
    ),
    # a delegate repeats the name in its body and calls: BM25 alone prefers it
    "core/util/JsonParserDelegate.java": (
        "public class JsonParserDelegate extends JsonParser {\n"
        + PARSER_METHOD.format("delegate.getNumberType()")
        + "    // the JsonParser's getNumberType: JsonParser getNumberType\n" * 6
        + "}\n"
    ),
    "core/base/ParserBase.java": (
        "public abstract class ParserBase extends JsonParser {\n"
        + PARSER_METHOD.format("getNumberType0()")
        + "}\n"
    ),
}


@pytest.mark.parametrize(
    "query",
    [
        "JsonParser.getNumberType",
        "change Javadoc for `JsonParser.getNumberType()`",
        "where does JsonParser::getNumberType decide",
    ],
)
def test_a_qualified_name_ranks_the_file_declaring_that_one_first(
    tmp_path: Path, query: str
) -> None:
    """Three parsers declare `getNumberType`; `JsonParser.getNumberType` is one of them."""
    (order,) = ranked_over(tmp_path, PARSERS, query)
    assert order[0] == "core/JsonParser.java", order


def test_a_qualified_names_last_word_lifts_only_the_declaration_it_names(
    tmp_path: Path,
) -> None:
    """`Render` alone is too common to name anything; `Data.Render` names one method."""
    files = {
        "render/data.go": "package render\n\ntype Data struct{}\n\n"
        "func (r Data) Render(w Writer) error { return nil }\n",
        "render/json.go": "package render\n\ntype JSON struct{}\n\n"
        "func (r JSON) Render(w Writer) error {\n\t// write the content length\n"
        "\treturn writeJSON(w, r, length)\n}\n",
        "render/text.go": "package render\n\n// write the content length of the text\n"
        "func writeText(w Writer, length int) {}\n",
    }
    query = "write content length in Data.Render"
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in files.items() for rec in records(path, body)], {})
        named = store.read(lambda conn: declared_symbols(conn, "r", query, 150))
        assert ranked(store, query)[0] == "render/data.go"
    assert named == {"render/data.go": {"render.Data.Render": 3}}


def test_a_python_stub_ranks_below_its_module_unless_types_are_asked(tmp_path: Path) -> None:
    """A stub repeats every public name of its module, with their types: the request's
    words meet there, the change goes into the module."""
    stub = "".join(
        f"def {name}(val: object, *, message: str = ...) -> _ValidatorType: ...\n"
        for name in ("ne", "lt", "le", "ge", "gt", "in_", "max_len", "min_len")
    )
    files = {
        "src/attr/validators.pyi": stub,
        "src/attr/validators.py": "def ne(val):\n    '''A validator that raises unless the"
        " attribute is not equal to val.'''\n    return _NeValidator(val)\n"
        + "\n".join(f"def helper_{i}(value):\n    return value\n" for i in range(6)),
    }
    add, typed = ranked_over(
        tmp_path, files, "Add `ne` validator", "fix the ne validator's type stub"
    )
    assert add[0] == "src/attr/validators.py", add
    assert typed[0] == "src/attr/validators.pyi", typed


MIDDLEWARE = "".join(
    f"class ExceptionMiddleware{i}:\n    def handle_exception(self, exc):\n        raise exc\n"
    for i in range(3)
)
MODULE_FILES = {
    "starlette/exceptions.py": "class HTTPException(Exception):\n    status_code = 500\n",
    "starlette/middleware/exceptions.py": MIDDLEWARE + "# the exception middleware module\n",
    "src/starlette/routing/__init__.py": "def route(path):\n    return path\n",
    "starlette/routing.py": "def mount(path):\n    return path\n",
    "src/app/config.rs": "pub struct Config {}\n",
    "tests/test_exceptions.py": "def test_exceptions():\n    assert exceptions\n",
}


@pytest.mark.parametrize(
    ("query", "head"),
    [
        (
            "Remove ExceptionMiddleware exception import proxy from `starlette.exceptions` module",
            {"starlette/exceptions.py"},
        ),
        (
            "move the route helpers out of starlette.routing",
            {"starlette/routing.py", "src/starlette/routing/__init__.py"},
        ),
        ("split `crate::config` into two files", {"src/app/config.rs"}),
    ],
)
def test_a_module_the_request_names_by_its_qualified_name_ranks_first(
    tmp_path: Path, query: str, head: set[str]
) -> None:
    """`starlette.exceptions` is starlette/exceptions.py, though the request's other words
    fill starlette/middleware/exceptions.py."""
    [order] = ranked_over(tmp_path, MODULE_FILES, query)
    assert set(order[: len(head)]) == head, order


def test_the_modules_a_qualified_name_names(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for p, b in MODULE_FILES.items() for rec in records(p, b)], {})

        def named(query: str) -> list[str]:
            return store.read(lambda conn: module_named_files(conn, "r", query))

        assert named("fix starlette.routing") == [
            "src/starlette/routing/__init__.py",
            "starlette/routing.py",
        ]
        assert named("fix `self::config`") == ["src/app/config.rs"]
        assert named("fix exceptions.HTTPException and routing") == []  # a declaration's name
        assert named("fix the exceptions") == []


def test_only_python_and_rust_names_spell_modules(tmp_path: Path) -> None:
    """Go's `clause.Returning` names a declaration, `pyproject.toml` a file: neither names a
    module, whatever files are called so."""
    files = {
        "clause/returning.go": "package clause\n\nfunc ret() {}\n",
        "src/poetry/pyproject/toml.py": "def load():\n    pass\n",
    }
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for p, b in files.items() for rec in records(p, b)], {})
        named = store.read(
            lambda conn: [
                module_named_files(conn, "r", query)
                for query in ("panic with clause.Returning", "include pyproject.toml path")
            ]
        )
        assert named == [[], []]


def test_a_lone_name_only_a_test_declares_ranks_that_test_first(tmp_path: Path) -> None:
    """`TestCustomDefaultShellCompDirective` is a test's name: looked up alone, the test file
    declaring it is what the query means; inside a sentence, or where a source file declares
    the name too, tests stay below."""
    body = "func TestCustomDefaultShellCompDirective(t *testing.T) {\n\trun(t)\n}\n"
    files = {
        "completions_test.go": body,
        "completions.go": "// custom default shell comp directive\n" * 6 + "func Complete() {}\n",
        "args.go": "func TestArgs() {}\n",
        "args_test.go": "func TestArgs(t *testing.T) {}\n",
    }
    lone, sentence, both = ranked_over(
        tmp_path,
        files,
        "TestCustomDefaultShellCompDirective",
        "fix the custom default shell comp directive",
        "TestArgs",
    )
    assert lone[0] == "completions_test.go", lone
    assert sentence[0] == "completions.go", sentence
    assert both[0] == "args.go", both


def test_a_one_word_name_written_as_code_looks_its_file_up(tmp_path: Path) -> None:
    """`_identifier` is jinja's _identifier.py, though the lexer says `identifier` more; a
    bare English word (`identifier`) still ranks by its words."""
    files = {
        "src/jinja2/_identifier.py": "import re\npattern = re.compile('[a-z]')\n",
        "src/jinja2/lexer.py": "# the identifier rules: an identifier token\n" * 8
        + "def lex_identifier(identifier):\n    return identifier\n",
    }
    private, quoted, bare = ranked_over(
        tmp_path, files, "_identifier", "`_identifier`", "identifier"
    )
    assert private[0] == quoted[0] == "src/jinja2/_identifier.py", (private, quoted)
    assert bare[0] == "src/jinja2/lexer.py", bare


def test_the_commit_type_a_request_opens_with_is_not_its_word(tmp_path: Path) -> None:
    """kratos: `feat(config): add generic config Get support` ranked cmd's change/get.go,
    which declares `commitTypeFeat`, above config/config.go: `feat` says what kind of
    change it is, not where it goes."""
    files = {
        "config/config.go": "package config\n\n// Config is a config source\n"
        "type Config interface {\n\tValue(key string) Value\n}\n\n"
        "func (c *config) Value(key string) Value { return c.get(key) }\n",
        "config/value.go": "package config\n\n// Value is a config value\n"
        "type Value interface {\n\tScan(any) error\n}\n",
        "cmd/change/get.go": 'package change\n\nconst commitTypeFeat = "feat"\n\n'
        "func getFeat() string { return commitTypeFeat + feat }\n",
    }
    [order] = ranked_over(tmp_path, files, "feat(config): add generic config Get support")
    assert order[0] == "config/config.go", order
    assert without_commit_type("feat(config): add Get") == "(config): add Get"
    assert without_commit_type(":sparkles: chore: the parser") == ": the parser"
    assert without_commit_type("fix: the parser") == "fix: the parser"  # a verb, weighed so
    assert without_commit_type("Fix the parser") == "Fix the parser"  # no type: a sentence
    assert without_commit_type("features: list them") == "features: list them"
