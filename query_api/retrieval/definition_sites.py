"""A search for where a name is defined (`where is Environment defined`, `definition of
LoopContext`) points the hit of each file declaring it at that declaration.

A hit's lines are those holding the most of the query's words, and `defined` and a common
name are words of many lines: QA on pallets/jinja, `where is Environment defined` pointed
environment.py at imports ending `# type: ignore[attr-defined]` (lines 25-28), and `where is
the Environment class defined` at `environment_class: type[Environment] = Environment` (line
1152); the class starts at line 145. The range is the declaration (its head when longer than
MAX_RANGE_LINES), the snippet its first lines; a file declaring no such name keeps the lines
its words found. When no file of the answer declares it (markupsafe's `Markup` in jinja), each
file importing it points at that import: where the name comes from. A pytest node id
(`tests/test_filters.py::TestFilter::test_xmlattr`) points its test file's hit at the test.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from processors.symbols.reference_sites import MACRO_BANG
from query_api.retrieval.default_exports import anonymous_default_line
from query_api.retrieval.export_aliases import exported_local
from query_api.retrieval.failed_tests import failed_tests
from query_api.retrieval.failed_titles import at_failed_titles, failed_titles
from query_api.retrieval.hit_details import (
    CONTEXT_LINES,
    DETAILED_HITS,
    LINE_CHARS,
    MAX_RANGE_LINES,
    SNIPPET_LINES,
    SYMBOL_REASON,
    HitLocator,
)
from query_api.retrieval.implementations import (
    asks_implementations,
    block_end,
    implementation_line,
)
from query_api.retrieval.line_preference import import_lines
from query_api.retrieval.member_bodies import MEMBER_KINDS, function_body_line
from query_api.retrieval.naming_line import naming_line
from query_api.retrieval.shown_reasons import display_reason
from query_api.retrieval.users_first import COMMENT_LINE, as_members, distinctive
from query_api.symbols.overloads import declared_name, stub_ranges
from schemas import tools as t
from schemas.retrieval import MAX_REASONS
from streams.stores.views.symbol_spans import Declared

# a Rust macro is written with its bang (`tri!`, `json!`): the name is the part before it
_NAME = r"`?((?:[A-Za-z_$][\w$]*)(?:(?:\.|::|\#)[A-Za-z_$][\w$]*)*)(?:\(\)|!)?`?"
_KIND = (
    r"(?:class|function|method|type|struct|interface|trait|protocol|enum|constant|variable"
    r"|macro|property|field|attribute|namespace|module|(?:pub(?:\(\w+\))?\s+)?mod)"
)
# any declaration, after a name only: `where is RESET symbol defined` (QA on pmndrs/jotai: the
# word was searched, and atomWithDefault.ts's `Symbol()` ranked above constants.ts, declaring
# `export const RESET: unique symbol`); `where is the symbol table defined` names no `table`
_KIND_AFTER = _KIND[:-1] + "|symbol|" + r"(?:component|hook))"
# a React component or hook, named so after its name (`the Link component`, `the useBlocker
# hook`): QA on remix-run/react-router, `where is the Link component defined` matched no form
# and ranked dom/ssr/routes.tsx's getRouteModuleComponent above dom/lib.tsx, declaring `export
# const Link = React.forwardRef(...)`; a word before it names nothing (`the header component`)
_UI_KIND = re.compile(r"[`()!]*\s+(?:component|hook)\b", re.IGNORECASE)
# where a definition is looked for, after the name: `in s3.ts`, `of the fs driver`
_SCOPE = r"(?:\s+(?:in|of|for)\s+(?:the\s+)?[\w./@-]+(?:\s+[\w./@-]+){0,3})?"
# a Rust impl's head written as the query (`impl FromStr for Value`, `impl<T> From<Vec<T>> for
# Value`): where the trait is implemented for the type (implementations.py). QA on
# serde-rs/json: `impl FromStr for Value` ranked src/value/de.rs, holding it, 8th
_DEFINED = re.compile(
    rf"""^\s*(?:
      where\s+(?:is|are)\s+(?:the\s+)?(?:{_KIND}\s+)?{_NAME}(?:\s+{_KIND_AFTER})?
        \s+(?:defined|declared|implemented)
      |where\s+(?:is|are)\s+(?:the\s+)?{_NAME}\s+{_KIND_AFTER}
      |where\s+(?:do|does)\s+\w+\s+(?:define|declare|implement)\s+(?:the\s+)?
        (?:{_KIND}\s+)?{_NAME}
      |(?:find\s+|show\s+(?:me\s+)?|go\s+to\s+)?(?:the\s+)?(?:definition|declaration)\s+of\s+
        (?:the\s+)?(?:{_KIND}\s+)?{_NAME}(?:\s+{_KIND_AFTER})?
      |(?:which|what)\s+(?:files?|modules?)\s+(?:defines|declares|implements)\s+(?:the\s+)?
        (?:{_KIND}\s+)?{_NAME}(?:\s+{_KIND_AFTER})?
      |(?:in\s+)?(?:which|what)\s+(?:files?|modules?|packages?)\s+(?:is|are)\s+(?:the\s+)?
        (?:{_KIND}\s+)?{_NAME}(?:\s+{_KIND_AFTER})?\s+(?:defined|declared|implemented)(?:\s+in)?
      |(?:unsafe\s+)?impl(?:\s*<.*?>)?\s+{_NAME}(?:\s*<.*?>)?\s+for\s+[^{{;]+?\s*\{{?
    )\s*\??\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
# the same, saying where to look (`where is getKeys defined in s3.ts`, `where is the watch
# method of the fs driver`): for a name written as code or with its kind, since `where is
# the environment defined for templates` asks about a word
_SCOPED = re.compile(
    rf"""^\s*where\s+(?:is|are)\s+(?:the\s+)?(?:
      (?:{_KIND}\s+)?{_NAME}(?:\s+{_KIND})?\s+(?:defined|declared|implemented)
      |{_NAME}\s+{_KIND}
    ){_SCOPE}\s*\??\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
# a name and its kind alone (`Value interface`, `the Template class`, `struct Engine`): a name
# written as code (a capital, `_`, a qualifier or backticks), since `parse function` or
# `retry type` is as often a request's words
# (and `definition` after it: `Value enum definition`, QA on serde-rs/json, where no form
# matched and src/value/de.rs's `deserialize_enum` ranked above src/value/mod.rs)
_KIND_AND_NAME = re.compile(
    rf"^\s*(?:the\s+)?(?:{_KIND}\s+{_NAME}|{_NAME}\s+{_KIND_AFTER})"
    r"(?:\s+(?:definition|declaration))?\s*\??\s*$",
    re.IGNORECASE,
)
# `where is post_fork`, `where is the post_fork hook`: a name written as code, alone or with a
# noun naming a declaration's role (QA on benoitc/gunicorn: both were no definition query, and
# ctl/server.py's `_register_fork_handlers` ranked above config.py's `def post_fork`); not a
# word (`where is the retry logic`), a dotted name (a file: `where is the tsconfig.json`), or a
# verb (`where is parseArgs used`); a test by its name (`where is the multi_progress_println
# test`: QA on console-rs/indicatif ranked two sources' `mod tests` above tests/render.rs)
_ROLE_NOUN = r"(?:hook|component|setting|option|callback|handler|decorator|helper|fixture|test)"
_WHERE_NAME = re.compile(
    rf"^\s*where\s+(?:is|are)\s+(?:the\s+)?{_NAME}(?:\s+{_ROLE_NOUN})?\s*\??\s*$",
    re.IGNORECASE,
)
# a Rust compiler's error naming the type a member was looked up in (`error[E0599]: no method
# named `with_tab_width` found for struct `ProgressBarIter<T>` in the current scope`, `no
# field `x` on type `&mut gauge::Bar``): the member goes into that type's declaration. QA on
# console-rs/indicatif ranked src/progress_bar.rs, declaring another type's with_tab_width,
# above src/iter.rs, declaring ProgressBarIter
_RUSTC_MEMBER = re.compile(
    r"\bno\s+(?:(?:method|field|function|variant|associated\s+item|function\s+or\s+associated"
    r"\s+item|variant\s+or\s+associated\s+item)\s+named\s+`[^`]+`\s+found\s+for"
    r"\s+(?:struct|enum|union|trait|type|opaque\s+type)|field\s+`[^`]+`\s+on\s+type)"
    r"\s+`(?:&(?:mut\s+)?)?(?:(?:dyn|impl)\s+)?(?:\w+::)*([A-Za-z_]\w*)"
)
_CODE_NAME = re.compile(r"[A-Z_.:#`$!]")  # `!`: a Rust macro's name, `json! macro`
_KIND_WORD = re.compile(_KIND, re.IGNORECASE)
CONTENT = "content-match"  # the reason after the `symbol:` ones (spec §1.4's order)
FIELD_KIND = "Field"  # a variable: a class or function of the name is what is meant first
# an interface sharing its name with another declaration of its file (TypeScript merges
# `interface X` with `class X`): the other holds the code, the interface adds signatures
INTERFACE_KIND = "Interface"
# the declaration kinds (schemas.symbols) a word of the query names
_KINDS_NAMED = {
    "class": {"Type"},
    "struct": {"Type"},
    # a Go named type that is no struct (`type Level int8`), a type alias, a typedef: Other
    # (QA on rs/zerolog: `where is the Level type defined` ranked log.go seventh)
    "type": {"Type", "Interface", "Enum", "Other"},
    "interface": {"Interface"},
    "trait": {"Interface", "Type"},
    # a Python typing.Protocol is a class, Swift's and Objective-C's an interface (QA on
    # python-jsonschema/jsonschema: `where is the Validator protocol` matched no form)
    "protocol": {"Interface", "Type"},
    "enum": {"Enum", "Type"},
    "function": {"Function", "Method"},
    "method": {"Method", "Function"},
    "constant": {"Field", "Other"},
    "variable": {"Field", "Other"},
    # a Python property is a method under @property (QA on pallets/werkzeug: `where is the
    # mimetype property of Response` matched no form)
    "property": {"Property", "Method", "Field"},
    "field": {"Field", "Property"},
    "attribute": {"Field", "Property"},
    # a TS/C++/C# namespace, or an object a JS library calls one (msw's `const http = {...}`:
    # `A namespace to intercept and mock HTTP requests`; QA on mswjs/msw)
    "namespace": {"Namespace", "Field"},
    "module": {"Namespace"},  # a Rust `mod x;`, else a file (module_kind.py)
    "mod": {"Namespace"},  # `which file declares pub mod render`: its `mod` written as code
    # a Rust `macro_rules!` and a C `#define` (QA on mitsuhiko/insta: `where is the
    # allow_duplicates macro defined` ranked runtime.rs's `fn allow_duplicates` first)
    "macro": {"Other"},
}
# the kind a word means where the repository declares the name so, its other kinds being how
# some parsers store one (preferred_kinds): a Rust trait is an Interface, a Python Protocol a
# class; `type` means all of its kinds alike (Go's `type Level int8` is one)
_MEANT_FIRST = {"trait": "Interface", "protocol": "Interface", "enum": "Enum"}


def defined_name(query: str) -> str | None:
    """The name whose definition the query asks for (`Environment`, `Environment.overlay`;
    `Value interface`: QA on spf13/pflag ranked golangflag.go and int.go above flag.go,
    which declares it), else None."""
    found = _definition_query(query)
    if found is None:
        return None
    return next((group for group in found.groups() if group), None)


# the type a scoped definition query looks in (`where is the indices method of
# EnhancedDoubleHasher`, `where is getItem defined in the Storage class`): a name written as
# code, no file (`in s3.ts`) and no word (`of the fs driver`)
_SCOPE_TYPE = re.compile(
    r"^\s+(?:in|of|for)\s+(?:the\s+)?`?([A-Z][\w$]*)`?"
    r"(?:\s+(?:class|type|struct|interface|trait|enum))?\s*\??\s*$"
)


def scoped_type(query: str) -> str | None:
    """The type a definition query says to look in, after its name and kind (_SCOPED), else
    None: of the declarations of the name, that type's is meant (defining_files._of_type).
    QA on apache/commons-collections: `where is the indices method of EnhancedDoubleHasher`
    ranked Hasher.java, declaring the interface's `indices`, above EnhancedDoubleHasher.java."""
    members = as_members(query)
    found = _definition_query(members)
    if found is None or found.re is not _SCOPED:
        return None
    at = next(i for i, group in enumerate(found.groups(), start=1) if group)
    rest = members[found.end(at) :]
    kind = _KIND_WORD.match(rest.lstrip())
    after = rest.lstrip()[kind.end() :] if kind else rest
    after = re.sub(r"^\s+(?:defined|declared|implemented)\b", "", after, flags=re.IGNORECASE)
    typed = _SCOPE_TYPE.match(" " + after.lstrip())
    return typed.group(1) if typed else None


def _definition_query(query: str) -> re.Match[str] | None:
    """The match of a definition form, read on the query with its possessives as members
    (users_first.as_members: `where is the ObjectConsKeyExpr type's Value method`); callers
    slice `as_members(query)` by its positions."""
    members = as_members(query)
    possessive, query = members != query, members
    found = _DEFINED.match(query)
    if found is not None:
        return None if _names_a_word(query, found) else found
    scoped = _SCOPED.match(query)
    if scoped is not None:
        at = next(i for i, group in enumerate(scoped.groups(), start=1) if group)
        written = query[max(0, scoped.start(at) - 1) : scoped.end(at) + 1]
        asked = re.split(r"\s(?:in|of|for)\s", query[scoped.end(at) :], maxsplit=1)[0]
        kinded = _KIND_WORD.search(query[: scoped.start(at)] + " " + asked) is not None
        if kinded or _CODE_NAME.search(written):
            return scoped
    bare = _KIND_AND_NAME.match(query)
    if bare is None:
        return _where_name(query, possessive) or _RUSTC_MEMBER.search(query)
    if _names_a_word(query, bare):
        return None
    at = 1 if bare.group(1) else 2
    written = query[max(0, bare.start(at) - 1) : bare.end(at) + 1]  # with its backticks
    if _KIND_WORD.fullmatch(bare.group(at)) or not _CODE_NAME.search(written):
        return None
    return bare


def _names_a_word(query: str, found: re.Match[str]) -> bool:
    """Whether `found` names a component or hook (_UI_KIND) by a word, not written as code."""
    at = next((i for i, group in enumerate(found.groups(), start=1) if group), 0)
    if not at or _UI_KIND.match(query, found.end(at)) is None:
        return False
    return _CODE_NAME.search(query[max(0, found.start(at) - 1) : found.end(at) + 1]) is None


def _where_name(query: str, member: bool = False) -> re.Match[str] | None:
    """`where is X` (or `where is the X hook`) for X written as code and naming no file;
    `member`: the query wrote X as a type's possessive (`the Upgrader's CheckOrigin`), so
    a dotted X is `Type.member`, not a file."""
    found = _WHERE_NAME.match(query)
    if found is None or ("." in found.group(1) and not member):
        return None
    written = query[max(0, found.start(1) - 1) : found.end(1) + 1]  # with its backticks
    if _KIND_WORD.fullmatch(found.group(1)) or not _CODE_NAME.search(written):
        return None
    return found


def asked_kinds(query: str) -> frozenset[str]:
    """The declaration kinds a definition query names besides its name (`where is the
    ObjectSchema class declared`: Type), else none."""
    return frozenset(kind for word in _kind_words(query) for kind in _KINDS_NAMED.get(word, ()))


def preferred_kinds(query: str) -> frozenset[str]:
    """Of asked_kinds, the one each kind word means first (`trait`: Interface, though a
    Type may be one too): a Rust crate declaring `trait Subscriber` and a `struct
    Subscriber` is asked for the trait. QA on tokio-rs/tracing: `where is the Subscriber
    trait defined` ranked the fmt module's struct first."""
    return frozenset(_MEANT_FIRST[word] for word in _kind_words(query) if word in _MEANT_FIRST)


def _kind_words(query: str) -> list[str]:
    """The kind words a definition query names besides its name, lower-cased."""
    query = as_members(query)  # as _definition_query read it: its positions are there
    found = _definition_query(query)
    if found is None:
        return []
    if found.re is _RUSTC_MEMBER:  # the type's kind, not the member's (`no method named`)
        kind = re.search(r"\bfor\s+(struct|enum|trait)\s", found.group(0))
        return [kind.group(1) if kind else "type"]
    at = next(i for i, group in enumerate(found.groups(), start=1) if group)
    # not the words of where it is looked for (`in the Storage class`)
    after = re.split(r"\s(?:in|of|for)\s", query[found.end(at) :], maxsplit=1)[0]
    rest = query[: found.start(at)] + " " + after
    words = re.findall(rf"\b{_KIND}\b", rest, re.IGNORECASE)
    return [word.split()[-1].casefold() for word in words]


# a pytest node id, as `pytest -v` and its failures print it: `tests/test_x.py::TestX::test_y`
# (a parametrized case's `[id]` after it)
_NODE_ID = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.py)((?:::[A-Za-z_]\w*)+)")


def test_ids(query: str) -> list[tuple[str, list[str]]]:
    """The pytest node ids the query writes: each test file's path and the names inside it
    (`TestFilter`, `test_xmlattr`)."""
    return [
        (found.group(1).casefold(), found.group(2).split("::")[1:])
        for found in _NODE_ID.finditer(query)
    ]


def at_definitions(
    locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]
) -> list[t.SearchHit]:
    """`hits` with each detailed file hit declaring the name the query asks the definition
    of pointed at that declaration, or each test file a pytest node id names (`tests/
    test_filters.py::TestFilter::test_xmlattr`) at that test: QA on pallets/jinja, the node
    id pointed test_filters.py at the head of TestFilter, 430 lines above the test."""
    asked = defined_name(query)
    if asked is None and (failed := failed_tests(query)):
        return _at_failed_tests(locator, repo_id, failed, hits)
    if asked is None and (titled := failed_titles(query)):  # Vitest's, Jest's
        return at_failed_titles(locator, repo_id, titled, hits)
    if asked is None:
        return _at_test_ids(locator, repo_id, test_ids(query), hits)
    parts = [p for p in re.split(r"\.|::|#", asked) if p]
    kinds = asked_kinds(query)
    detailed = {
        rank: hit.entry.path
        for rank, hit in enumerate(hits[:DETAILED_HITS])
        if hit.entry.kind == "File" and hit.entry.path
    }
    bodies = {rank: locator.body(repo_id, path) for rank, path in detailed.items()}
    declared = {
        rank: found
        for rank, path in detailed.items()
        if (
            found := declaration_of(
                locator.symbols_of(repo_id, path), parts, kinds, _lines(bodies[rank])
            )
        )
        is not None
    }
    whole = re.compile(rf"(?<![\w$]){re.escape(parts[-1])}(?![\w$])")
    implemented = asks_implementations(query)  # a trait's or interface's: implementations.py
    out = []
    for rank, hit in enumerate(hits):
        body = bodies.get(rank)
        lines = body.split("\n") if body is not None else []
        kind = declared[rank].kind if rank in declared else INTERFACE_KIND
        if (
            implemented
            and kind == INTERFACE_KIND
            and implementation_line(lines, parts[-1], query) is not None
        ):
            hit = _at_implementation(hit, lines, parts[-1], query)  # not the trait: its impl
        elif (
            body is not None
            and rank in declared
            and (inner := _member_body(declared[rank], lines, parts[-1]))
        ):
            # createSubject's `const subscribe = (`, not its type's `subscribe:` member
            hit = hit.model_copy(update=inner)
        elif body is not None and rank in declared:
            named = _named(locator, repo_id, detailed[rank], declared[rank])
            hit = _at(hit, body.split("\n"), declared[rank], named)
        elif body is not None and (words := _written_declaration(body, parts[-1])) is not None:
            hit = hit.model_copy(update=words)  # one the symbols miss: inside a macro's call
        elif body is not None and (unnamed := _default_export(hit, lines, parts[-1])):
            hit = hit.model_copy(update=unnamed)  # `export default () =>` of generateId.ts
        elif body is not None and (local := _aliased(locator, repo_id, hit, body, parts[-1])):
            hit = _at(hit, lines, local, _named(locator, repo_id, detailed[rank], local))
        elif body is not None and not declared:  # another package's: where it comes from
            hit = _at_import(hit, body.split("\n"), whole)
        elif body is not None:
            hit = _at_mention(hit, body.split("\n"), parts[-1])
        out.append(hit)
    return out


def no_definition_note(
    locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]
) -> str | None:
    """What an answer to `where is X defined` says when none of its first DETAILED_HITS
    hits declares X (as at_definitions finds declarations): its hits then only mention or
    import X, and read as its definition. QA on pallets/werkzeug: `where is url_quote
    defined` (removed in 3.0) answered urls.py first, for `_codec_error_url_quote` and a
    string naming `werkzeug.url_quote`, then files calling `quote`, with no word."""
    asked = defined_name(query)
    if asked is None or not hits:
        return None
    parts = [p for p in re.split(r"\.|::|#", asked) if p]
    if len(parts) == 1 and not (distinctive(asked) or asked[:1].isupper()):
        return None  # a word (`where are cookies defined`), as often a concept as a name
    if _where_name(query) is not None and _names_a_file(hits[:DETAILED_HITS], asked):
        return None  # `where is the Makefile`: a file of the name is what was asked for
    alias: str | None = None
    implemented = asks_implementations(query)
    for hit in hits[:DETAILED_HITS]:
        path = hit.entry.path
        if hit.entry.kind != "File" or not path:
            fq = re.split(r"\.|::|#", declared_name(hit.entry.fullyQualifiedName or ""))
            if [n.casefold() for n in fq[-len(parts) :]] == [p.casefold() for p in parts]:
                return None
            continue
        if declaration_of(locator.symbols_of(repo_id, path), parts) is not None:
            return None
        body = locator.body(repo_id, path)
        if body is not None and _written_declaration(body, parts[-1]) is not None:
            return None
        if body is not None and anonymous_default_line(path, body, parts[-1]) is not None:
            return None  # generateId.ts's `export default () =>`: importers name it so
        # `where is FromStr implemented for Value`: an implementation is what it asks for
        # (QA on serde-rs/json: the note said no hit declares FromStr, std's trait, above
        # the hit at `impl FromStr for Value`)
        lines = body.split("\n") if body is not None else []
        if implemented and implementation_line(lines, parts[-1], query) is not None:
            return None
        local = exported_local(path, body, parts[-1]) if body is not None else None
        if local is not None and alias is None:
            alias = f"{path} exports {local} as {parts[-1]}"
    # QA on pmndrs/jotai: with the module exporting a declaration under the name first, the
    # note alone read as if that hit were wrong
    said = f"none of these hits declares {parts[-1]}"
    return f"{said}; {alias}" if alias is not None else said


def _aliased(
    locator: HitLocator, repo_id: str, hit: t.SearchHit, body: str, name: str
) -> Declared | None:
    """The declaration a detailed TS/JS file hit exports under the asked name (`export {
    _Object_ as Object }`): QA on sinclairzx81/typebox, `where is Type.Object defined` pointed
    src/type/types/object.ts at `StaticObject`, not at the function it exports so."""
    path = hit.entry.path
    if not path or hit.entry.kind != "File":
        return None
    local = exported_local(path, body, name)
    return None if local is None else declaration_of(locator.symbols_of(repo_id, path), [local])


def _names_a_file(hits: list[t.SearchHit], name: str) -> bool:
    """Whether one of `hits` is a file called `name`, or `name` and an extension."""
    folded = name.casefold()
    for hit in hits:
        file_name = (hit.entry.path or "").rpartition("/")[2].casefold()
        if hit.entry.kind == "File" and folded in (file_name, file_name.split(".", 1)[0]):
            return True
    return False


def _at_test_ids(
    locator: HitLocator, repo_id: str, ids: list[tuple[str, list[str]]], hits: list[t.SearchHit]
) -> list[t.SearchHit]:
    if not ids:
        return hits
    out = []
    for rank, hit in enumerate(hits):
        path = hit.entry.path
        folded = path.casefold() if path else ""
        parts = next(
            (
                names
                for written, names in ids
                if folded == written
                or folded.endswith("/" + written)
                or written.endswith("/" + folded)
            ),
            None,
        )
        if rank < DETAILED_HITS and hit.entry.kind == "File" and path and parts:
            body = locator.body(repo_id, path)
            declared = declaration_of(locator.symbols_of(repo_id, path), parts, lines=_lines(body))
            if declared is not None and body is not None:
                named = _named(locator, repo_id, path, declared)
                hit = _at(hit, body.split("\n"), declared, named)
        out.append(hit)
    return out


def _at_failed_tests(
    locator: HitLocator, repo_id: str, failed: list[str], hits: list[t.SearchHit]
) -> list[t.SearchHit]:
    """Each detailed file hit declaring a test a pasted `go test` failure names (`--- FAIL:
    TestSchemeMatcher`), or a JVM build's (`FooTest.testBar`, failed_tests), pointed at that
    test, the first it declares of those failed."""
    out = []
    for rank, hit in enumerate(hits):
        path = hit.entry.path
        if rank < DETAILED_HITS and hit.entry.kind == "File" and path:
            symbols = locator.symbols_of(repo_id, path)
            body = locator.body(repo_id, path)
            declared = next(
                (found for name in failed if (found := declaration_of(symbols, name.split(".")))),
                None,
            )
            if declared is not None and body is not None:
                named = _named(locator, repo_id, path, declared)
                hit = _at(hit, body.split("\n"), declared, named)
        out.append(hit)
    return out


def _lines(body: str | None) -> list[str]:
    return body.split("\n") if body is not None else []


def declaration_of(
    symbols: Sequence[Declared],
    parts: Sequence[str],
    kinds: frozenset[str] = frozenset(),
    lines: Sequence[str] = (),
) -> Declared | None:
    """The declaration `parts` (a name, or a qualified name's parts) names in a file: its
    qualified name ends with them; of several, one spelled in the query's case, then one of
    the `kinds` the query names, then one that is no member's property or field the query
    does not qualify (_member_value), then one that is no field, then no interface (TypeScript's
    `interface ObjectSchema` merged with `class ObjectSchema`: QA on jquense/yup, `where is
    the ObjectSchema class declared` pointed at the interface), then no overload stub of the
    file's `lines` (QA on pallets/werkzeug: `where is Request.get_json defined` pointed at
    the first `@t.overload` stub, not the method holding the code), then the first."""
    wanted = [p.casefold() for p in parts]
    # a name written with a capital is that spelling (search respelled one the repository
    # declares only otherwise: declared_spelling): QA on oakserver/oak, `where is Status
    # defined` took Response's `get status()` for the declaration of the Status it imports
    cased = parts[-1] if parts and parts[-1] != parts[-1].casefold() else None
    stubs = {first for first, _ in stub_ranges(symbols, lines)} if lines else set()
    best: tuple[bool, bool, bool, bool, bool, bool, bool, int, Declared] | None = None
    for at, symbol in enumerate(symbols):
        # a name declared twice in its file is stored with its types and a `#n`
        names = re.split(r"\.|::|#", declared_name(symbol.fq_name))
        exact = [n.casefold() for n in names[-len(wanted) :]] == wanted
        if not exact and not _exported(names, wanted):
            continue
        if cased is not None and names[-1] != cased:
            continue
        key = (
            exact,
            symbol.name == parts[-1],
            symbol.kind in kinds,
            not _member_value(names, wanted, symbol.kind),
            symbol.kind != FIELD_KIND,
            symbol.kind != INTERFACE_KIND,
            symbol.start_line not in stubs,
            -at,
        )
        if best is None or key > best[:8]:
            best = (*key, symbol)
    return best[8] if best else None


def _member_value(names: Sequence[str], wanted: Sequence[str], kind: str) -> bool:
    """Whether a declaration is another one's property or field the query does not qualify
    (`FetcherWithComponents.Form` for `Form`): a member's slot, not the thing the name
    declares at its file's top (`export const Form = ...`), which a field's rule would put
    after it. QA on remix-run/react-router pointed `where is Form defined` at the member."""
    return len(names) > len(wanted) and kind in (FIELD_KIND, "Property")


def _exported(names: Sequence[str], wanted: Sequence[str]) -> bool:
    """Whether a qualified name the query writes (`typer.run`, `wanted`, casefolded) names
    the declaration `names` (`typer.main.run`) as a package exporting it does: the same last
    part, its qualifier's parts among the declaration's in order. QA on fastapi/typer:
    `where is typer.run defined` answered typer/main.py, declaring `run` past its stored
    text, with the note `none of these hits declares run`."""
    if len(wanted) < 2 or names[-1].casefold() != wanted[-1]:
        return False
    rest = iter(n.casefold() for n in names[:-1])
    return all(part in rest for part in wanted[:-1])


def _at(hit: t.SearchHit, lines: Sequence[str], declared: Declared, named: str) -> t.SearchHit:
    """`hit` at `declared`, whose `symbol:` reason (`named`, as code imports it) leads the
    others; at its lines with no snippet when it starts past the text the file stores (QA on
    tokio-rs/tracing: `macro_rules! valueset` at line 2990 of a 115 KB file, the hit left at
    invocations of `valueset_all!` in its first lines)."""
    lo, hi = declared.start_line, min(declared.end_line, len(lines))
    if lo > len(lines):  # past the stored text: its lines, none to show
        hi = min(declared.end_line, lo + MAX_RANGE_LINES - 1)
        reasons = _led_by(hit.reasons, named)
        return hit.model_copy(
            update={"startLine": lo, "endLine": hi, "snippet": None, "reasons": reasons}
        )
    if lo > hi:
        return hit
    worded = [n for n in range(lo, hi + 1) if lines[n - 1].strip()]
    shown = worded[:SNIPPET_LINES]
    # a Rust macro's stored name has its bang (`ffi_fn!`), which `macro_rules! ffi_fn {` does
    # not write: its head, not an invocation inside it (QA on hyperium/hyper)
    naming = naming_line(lines, worded, declared.name.removesuffix(MACRO_BANG))
    if naming is not None and naming not in shown:  # attributes above it: from its name on
        shown = [n for n in worded if n >= naming][:SNIPPET_LINES]
    if hi - lo + 1 > MAX_RANGE_LINES and shown:  # a long declaration: its head
        hi = min(hi, shown[-1] + CONTEXT_LINES)
    snippet = "\n".join(f"{n}: {_cut(lines[n - 1].strip())}" for n in shown) or None
    reasons = _led_by(hit.reasons, named)
    update = {"startLine": lo, "endLine": hi, "snippet": snippet, "reasons": reasons}
    return hit.model_copy(update=update)


def _led_by(reasons: list[str], named: str) -> list[str]:
    """`reasons` with the `symbol:` reason of the declaration `named` leading the others:
    they named the declarations sharing the query's words."""
    reason = SYMBOL_REASON + named
    rest = [r for r in reasons if r != reason]
    at = next((i for i, r in enumerate(rest) if r.startswith(SYMBOL_REASON) or r == CONTENT), None)
    out = [*rest[:at], reason, *rest[at:]] if at is not None else [*rest, reason]
    others = [i for i, r in enumerate(out) if r.startswith(SYMBOL_REASON) and r != reason]
    if len(out) > MAX_REASONS and others:  # the last other declaration named gives way
        del out[others[-1]]
    return out[:MAX_REASONS]


def _named(locator: HitLocator, repo_id: str, path: str, declared: Declared) -> str:
    """`declared`'s name as code imports it (`jinja2.environment.Environment`), without the
    types an overload is stored with (`Builder.max_buf_size(self,usize)`: display_reason)."""
    packages = locator.packages(repo_id, path) if path.endswith((".py", ".pyi")) else set()
    return display_reason(SYMBOL_REASON + declared.fq_name, path, packages)[len(SYMBOL_REASON) :]


_DECLARING = r"(?:fn|def|func|function|class|struct|enum|trait|type|interface|const|static)"


def _written_declaration(body: str, name: str) -> dict[str, object] | None:
    """The place of a line declaring `name` in words (`fn name(`, `class name`) outside
    comments, with its first lines as the snippet, for a file whose declarations the
    symbols do not hold it: QA on hyperium/hyper, `where is hyper_clientconn_handshake
    defined` pointed src/ffi/client.rs at a doc comment naming it, not at the
    `fn hyper_clientconn_handshake(` inside its `ffi_fn! { ... }`."""
    declaring = re.compile(rf"(?<![\w$]){_DECLARING}\s+{re.escape(name)}(?![\w$])")
    lines = body.split("\n")
    for n, line in enumerate(lines, start=1):
        if declaring.search(line) and not COMMENT_LINE.match(line):
            shown = [
                m for m in range(n, min(n + CONTEXT_LINES, len(lines)) + 1) if lines[m - 1].strip()
            ]
            shown = shown[:SNIPPET_LINES]
            snippet = "\n".join(f"{m}: {_cut(lines[m - 1].strip())}" for m in shown)
            return {"startLine": n, "endLine": shown[-1], "snippet": snippet}
    return None


def _member_body(declared: Declared, lines: Sequence[str], name: str) -> dict[str, object] | None:
    """The place of the function a file declares in a body for `name`, where its declaration
    of the name is a member (a type's signature: member_bodies), with its first lines."""
    if declared.kind not in MEMBER_KINDS:
        return None
    n = function_body_line("\n".join(lines), name)
    if n is None:
        return None
    worded = [k for k in range(n, min(len(lines), n + CONTEXT_LINES) + 1) if lines[k - 1].strip()]
    snippet = "\n".join(f"{k}: {_cut(lines[k - 1].strip())}" for k in worded[:SNIPPET_LINES])
    return {"startLine": n, "endLine": block_end(lines, n, MAX_RANGE_LINES), "snippet": snippet}


def _default_export(hit: t.SearchHit, lines: Sequence[str], name: str) -> dict[str, object] | None:
    """The place of the anonymous default export of a TS/JS file hit called `name`, which
    its importers call it (default_exports), with its first lines as the snippet."""
    path = hit.entry.path
    if hit.entry.kind != "File" or not path:
        return None
    n = anonymous_default_line(path, "\n".join(lines), name)
    if n is None:
        return None
    worded = [k for k in range(n, min(len(lines), n + CONTEXT_LINES) + 1) if lines[k - 1].strip()]
    snippet = "\n".join(f"{k}: {_cut(lines[k - 1].strip())}" for k in worded[:SNIPPET_LINES])
    end = block_end(lines, n, MAX_RANGE_LINES)
    while end > n and not lines[end - 1].strip():
        end -= 1  # an arrow function's body, to its last line: no closing brace
    return {"startLine": n, "endLine": end, "snippet": snippet}


def _at_implementation(
    hit: t.SearchHit, lines: Sequence[str], name: str, query: str
) -> t.SearchHit:
    """`hit` at the file's implementation of the trait or interface `name`, if any."""
    n = implementation_line(lines, name, query)
    if n is None:
        return hit
    worded = [k for k in range(n, min(len(lines), n + MAX_RANGE_LINES) + 1) if lines[k - 1].strip()]
    snippet = "\n".join(f"{k}: {_cut(lines[k - 1].strip())}" for k in worded[:SNIPPET_LINES])
    end = block_end(lines, n, MAX_RANGE_LINES)
    return hit.model_copy(update={"startLine": n, "endLine": end, "snippet": snippet})


def _at_import(hit: t.SearchHit, lines: Sequence[str], whole: re.Pattern[str]) -> t.SearchHit:
    """`hit` at the file's first import statement naming the name, if any (a line of one
    written over several: import_lines), or re-export of it from another module
    (`export { HttpError } from "jsr:@oak/commons/http_errors"`: reexport_lines)."""
    imported = import_lines(lines) | reexport_lines(lines)
    for n, line in enumerate(lines, start=1):
        if n in imported and whole.search(line):
            shown = [n]
            # the statement's specifier too, when on a later line: where the name comes from
            m = n
            while m in imported and not _REEXPORT_FROM.search(lines[m - 1]) and m < n + 50:
                m += 1
            if m != n and m in imported:
                shown.append(m)
            snippet = "\n".join(f"{k}: {_cut(lines[k - 1].strip())}" for k in shown)
            # a file brought in for importing it came with no reason (QA on typebox: `where
            # is the TypeCompiler` answered two bench files, each with `reasons: []`)
            reasons = hit.reasons or [CONTENT]
            update = {"startLine": n, "endLine": shown[-1], "snippet": snippet, "reasons": reasons}
            return hit.model_copy(update=update)
    return hit


_REEXPORT_HEAD = re.compile(r"^\s*export\s+(?:type\s+)?(?:\*|\{)")
_REEXPORT_FROM = re.compile(r"""\bfrom\s*["'][^"']+["']""")
_MAX_REEXPORT_LINES = 200  # an unclosed `export {` reads no further


def reexport_lines(lines: Sequence[str]) -> frozenset[int]:
    """The numbers (1-based) of `lines` in a JavaScript or TypeScript re-export statement
    (`export { a, b } from "./m"`, `export * from "m"`), one written over several lines
    whole: the file names there what another module declares. QA on oakserver/oak, deps.ts
    re-exports `HttpError` on its own line of such a statement; `where is HttpError
    defined` pointed it at three lines sharing the name's words."""
    out: set[int] = set()
    n = 0
    while n < len(lines):
        if _REEXPORT_HEAD.match(lines[n]):
            end = n
            last = min(len(lines), n + _MAX_REEXPORT_LINES)
            while "}" not in lines[end] and "*" not in lines[n] and end + 1 < last:
                end += 1
            if _REEXPORT_FROM.search(lines[end]):
                out.update(range(n + 1, end + 2))
            n = end
        n += 1
    return frozenset(out)


def _at_mention(hit: t.SearchHit, lines: Sequence[str], name: str) -> t.SearchHit:
    """A file declaring no such name, in an answer where another does: `hit` as it is when
    its snippet names it, else at the file's first line of code spelling it (`_validate(` for
    `Schema.validate`), if any. Its lines were those holding the most of the query's words,
    `defined` among them: QA on jquense/yup, `where is Schema.validate defined` pointed
    object.ts at its `defined(` method (line 104), not at `protected _validate(` (229)."""
    folded = name.casefold()
    if hit.snippet and folded in hit.snippet.casefold():
        return hit
    for n, line in enumerate(lines, start=1):
        if folded in line.casefold() and not COMMENT_LINE.match(line):
            return hit.model_copy(
                update={"startLine": n, "endLine": n, "snippet": f"{n}: {_cut(line.strip())}"}
            )
    return hit


def _cut(text: str) -> str:
    return text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"
