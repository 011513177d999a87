"""A search for the users of a name (`what calls parseArgs`, `where is boolFlag used?`) points
each file hit at the lines using the name, not at its declaration.

A hit's lines are those holding the most of the query's words, and of lines scoring alike one
in a declaration the hit's reasons name wins: for such a query, the name's own declaration,
which the agent asking for its users already has. QA on spf13/pflag: `what calls parseArgs`
pointed flag.go at `parseArgs` (its doc comment and header), whose callers `Parse` and
`ParseAll` are further down the same file; `callers of FlagSet.VarPF` pointed count.go at
`CountVar`, which holds `FlagSet` and `Var`, not at the `CountVarP` that calls `VarPF`.
A use is a line holding the name whole outside the name's declarations and comments; a file
with none keeps the lines its words found.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from processors.language import LANGUAGE_BY_EXTENSION
from processors.path_roles import Role, role_of
from query_api.retrieval.hit_details import (
    CONTEXT_LINES,
    DETAILED_HITS,
    LINE_CHARS,
    MAX_RANGE_LINES,
    NEAR_LINES,
    SNIPPET_LINES,
    WINDOW_LINES,
    HitLocator,
)
from query_api.retrieval.import_sites import at_import_site, module_path, module_tail
from query_api.retrieval.line_preference import import_lines
from query_api.retrieval.spelled_users import placed_name
from query_api.retrieval.users_first import (
    COMMENT_LINE,
    HASH_COMMENTED,
    IMPLEMENTS_REASON,
    PLACED_REASONS,
    STRING,
    asks_implementers,
    declares_subtype_of,
    imported_file,
    last_part,
    outside_block_comments,
    outside_long_strings,
    used_name,
)
from schemas import tools as t
from streams.stores.views.named_files import PLACE_SUFFIX, whole_path
from streams.stores.views.symbol_spans import Declared

_IMPORTERS = re.compile(r"\bimport(?:s|ed)?\b", re.IGNORECASE)  # `what imports X`
# `what calls X`, `callers of X`; `where is X instantiated`, `who constructs X`: its calls too
_CALLS = re.compile(
    r"\b(?:call(?:s|ers?|ed|ing)|instantiat(?:e|es|ed|ing)|construct(?:s|ed|ing))\b", re.IGNORECASE
)
_HASH_COMMENT = re.compile(r"#.*")  # after code, where `#` starts comments


def at_use_sites(
    locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]
) -> list[t.SearchHit]:
    """`hits` with each detailed file hit that uses the name the query asks the users of
    pointed at its first use: the range is the innermost declaration around it (a window of
    it when longer than MAX_RANGE_LINES), the snippet its uses there."""
    return uses_located(locator, repo_id, query, hits)[0]


def uses_located(
    locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]
) -> tuple[list[t.SearchHit], bool]:
    """at_use_sites' hits, and whether any of them uses the name (False for a query not
    asking for the users of a name)."""
    asked = used_name(query) or placed_name(query, hits)  # `the TLV encoder`: TLVEncoder
    # a query that is only a file's path: its other hits are there for importing it (QA on
    # Textualize/rich: `rich/cells.py` pointed rich/segment.py at `getLogger("rich")`)
    written = imported_file(query) or path_alone(query)
    if written is not None or (asked is not None and _IMPORTERS.search(query)):
        # a module's importers: the specifier of a TS/JS/Go import is a string, no use
        tail = module_tail(written or asked or "")
        wanted = module_path(written or asked or "")
        hits = [
            _at_import(locator, repo_id, hit, tail, wanted) if rank < DETAILED_HITS else hit
            for rank, hit in enumerate(hits)
        ]
        if asked is None:
            return hits, False
    if asked is None:
        return hits, False
    name = last_part(asked)
    imports = _IMPORTERS.search(query) is not None
    whole = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    # `what calls X`: a line calling it before one only naming it (`r.URL.Host`: QA on
    # gorilla/mux, mux_test.go pointed at http.Request's URL field, not at `route.URL()`)
    called = re.compile(rf"{whole.pattern}\s*(?:\[[^\]]*\]\s*)?\(")
    prefer: Callable[[str], bool] | None = None
    if _CALLS.search(query):
        prefer = lambda line: called.search(line) is not None  # noqa: E731
    if asks_implementers(query):  # `what implements X`: its implementing type's line (QA on
        prefer = declares_subtype_of(asked)  # mswjs/msw: a return type `): SetupWorker {`)
    # an attribute no declaration names (`self.pretty_exceptions_short = ...` in a
    # constructor) is used through a value only: `X itself` is then its parameters
    declared = asked != name or bool(locator.symbols.symbols_named(repo_id, [name]))
    out = []
    using: list[t.SearchHit] = []
    for rank, hit in enumerate(hits):
        path = hit.entry.path
        if rank < DETAILED_HITS and hit.entry.kind == "File" and path:
            body = locator.body(repo_id, path)
            if body is not None:
                symbols = locator.symbols_of(repo_id, path)
                lines = body.split("\n")
                slashes = not path.endswith(HASH_COMMENTED)  # `//` and `/* */` comments
                patterns = (whole, prefer)
                flags = (imports, slashes, declared)
                located = _at_uses(hit, lines, symbols, (asked, name), patterns, flags)
                if located is hit and not (declared or imports) and role_of(path) != Role.DOC:
                    located = _at_string_uses(hit, lines, whole, slashes)
                if located is hit and "truncated" in hit.entry.fields:
                    located = _past_stored_use(locator, repo_id, hit, len(lines), symbols, asked)
                if located is not hit:
                    using.append(located)
                hit = located
        out.append(hit)
    return _using_first(out, using), bool(using)


def _using_first(hits: list[t.SearchHit], using: list[t.SearchHit]) -> list[t.SearchHit]:
    """`hits` with those in `using` (pointed at a use of the name) first, at the first
    hit's score, when none was placed for using it (`uses:`): its users are then in its own
    file (a nested function, a private helper), and a file sharing only its words led. QA
    on pallets/werkzeug: `what calls execute` led with debug/__init__.py's `execute_command`,
    above serving.py, whose `run_wsgi` calls its nested `execute` twice."""
    placed = any(r.startswith(PLACED_REASONS) for hit in hits for r in hit.reasons)
    if placed or not using or hits[0] in using:
        return hits
    top = max(hit.score for hit in hits)
    first = [hit.model_copy(update={"score": max(hit.score, top)}) for hit in using]
    return [*first, *(hit for hit in hits if hit not in using)]


def _at_import(
    locator: HitLocator, repo_id: str, hit: t.SearchHit, tail: str, wanted: str
) -> t.SearchHit:
    path = hit.entry.path
    body = locator.body(repo_id, path) if hit.entry.kind == "File" and path else None
    return at_import_site(hit, body.split("\n"), tail, wanted) if body is not None else hit


def path_alone(query: str) -> str | None:
    """The query when it is only the path of a source file (`rich/cells.py`, not
    `rich/cells.py:12` nor `cells`), else None."""
    path = whole_path(query)
    extension = path.rpartition(".")[2].lower()
    if not path or PLACE_SUFFIX.search(path) or extension not in LANGUAGE_BY_EXTENSION:
        return None
    return path


def no_use_note(query: str, hits: list[t.SearchHit], used: bool) -> str | None:
    """What an answer to `what calls X` says when none of its hits uses X (uses_located) nor
    was placed for using it (`uses:`): its hits are then X's declarations and files sharing
    its words, which read as callers. QA on spf13/pflag: `what calls GetSlice`, which nothing
    calls, answered twelve of its declarations and no word."""
    asked = used_name(query)
    if asked is None or used or not hits:
        return None
    if any(r.startswith(PLACED_REASONS) for hit in hits for r in hit.reasons):
        return None
    name = last_part(asked)
    return f"none of these hits uses {name} outside its declarations and comments"


def no_subtype_note(query: str, hits: list[t.SearchHit]) -> str | None:
    """What an answer to `what implements X` / `who extends X` says when none of its detailed
    hits declares a type implementing or extending X (at_use_sites points each at such a
    declaration when the file has one): the users placed instead read as its subtypes. QA on
    typestack/class-validator: `who extends ValidationError`, which no class extends, listed
    ten files using it, each with `uses:ValidationError` and no word."""
    asked = used_name(query)
    if asked is None or not asks_implementers(query) or not hits:
        return None
    if any(r.startswith(IMPLEMENTS_REASON) for hit in hits for r in hit.reasons):
        return None  # structural implementers (Go), placed as such
    if not any(r.startswith(PLACED_REASONS) for hit in hits for r in hit.reasons):
        return None  # no user either: no_use_note says so
    declares = declares_subtype_of(asked)
    for hit in hits[:DETAILED_HITS]:
        for line in (hit.snippet or "").split("\n"):
            if declares(line.partition(": ")[2]):
                return None
    name = last_part(asked)
    return f"none of these hits declares a type extending or implementing {name}; they use it"


def _declarations_of(asked: str, name: str, symbols: Sequence[Declared]) -> list[Declared]:
    """The declarations of `symbols` the query's name is: those `FlagSet.ParseAll` qualifies
    when any (pflag's package-level `ParseAll` calls the method, a use of it), else all
    called `name`."""
    named = [s for s in symbols if s.name == name]
    wanted = asked.replace("::", ".").replace("#", ".").casefold()
    if wanted == name.casefold():
        return named
    fq = [s for s in named if s.fq_name.casefold() == wanted]
    fq = fq or [s for s in named if s.fq_name.casefold().endswith("." + wanted)]
    return fq or [s for s in named if not _of_another_type(s, wanted, symbols)]


def _of_another_type(s: Declared, wanted: str, symbols: Sequence[Declared]) -> bool:
    """Whether `s` is a member of a declaration of its file other than the one `wanted`
    (`buffered.poll_flush`) qualifies it by: hyper's `Conn.poll_flush` calls Buffered's, and
    a module qualifier (`wait::timeout`, a free `timeout`) leaves the name's own alone."""
    owner = s.fq_name.split("(", 1)[0].rpartition(".")[0]
    qualifier = wanted.rpartition(".")[0].rpartition(".")[2]
    return bool(owner) and any(
        other.fq_name == owner and other.name.casefold() != qualifier for other in symbols
    )


def use_lines(
    lines: Sequence[str],
    own: Sequence[Declared],
    headers: set[int],
    whole: re.Pattern[str],
    slashes: bool = False,
) -> list[int]:
    """The numbers of the lines using the name `whole` matches: holding it whole outside
    string literals and comments after code (`//` and `/* */` ones with `slashes`, else
    `#`), neither a comment, nor a declaration's first line in `headers`, nor inside `own`,
    the declarations the query names (a recursive call is not who calls it)."""
    spans = [(s.start_line, s.end_line) for s in own]
    codes = outside_long_strings(lines)
    if slashes:
        codes = outside_block_comments(codes)
    else:
        codes = [_HASH_COMMENT.sub("", STRING.sub('""', code)) for code in codes]
    return [
        n
        for n, code in enumerate(codes, start=1)
        if whole.search(code)
        and n not in headers
        and not COMMENT_LINE.match(code)
        and not any(lo <= n <= hi for lo, hi in spans)
    ]


def _at_uses(
    hit: t.SearchHit,
    lines: Sequence[str],
    symbols: Sequence[Declared],
    names: tuple[str, str],
    wanted: tuple[re.Pattern[str], Callable[[str], bool] | None],
    flags: tuple[bool, bool, bool],
) -> t.SearchHit:
    """`hit` at the first use of the name (`names`: as asked, its last part); `flags`: the
    query asks for importers, the file comments with `//`, the repository declares the
    name (else no use is preferred for writing it bare)."""
    asked, name = names
    whole, prefer = wanted
    imports, slashes, declared = flags
    own = _declarations_of(asked, name, symbols)
    headers = {s.start_line for s in symbols if s.name == name}
    # a declaration the symbols leave out (a closure: `const getMount = (key) => {` inside
    # unstorage's createStorage, whose calls follow) declares the name, it does not use it
    local = _local_declaration(name)
    used = use_lines(lines, own, headers, whole, slashes)
    found = [n for n in used if not local.search(lines[n - 1])]
    found = _without_own_type_calls(found, lines, symbols, asked, name, whole)
    # an import of the name is where it comes from, not where it is used, while a line uses
    # it; unless the query asks for its importers
    imported = import_lines(lines)
    uses = [n for n in found if (n in imported) == imports] or found
    if not imports and asked == name and set(uses) <= imported:  # `proxyaddr as proxyAddr`
        uses = _aliased_uses(lines, uses, name, slashes) or uses
    if prefer is not None:  # a call, or an implementing type's declaration
        uses = [n for n in uses if prefer(lines[n - 1])] or uses
    if asked == name and declared:  # unqualified: X itself before another's (`strconv.ParseUint`)
        # (QA on fastapi/typer: `where is pretty_exceptions_short used` pointed typer/main.py
        # at a parameter of that name, not at `exception_config.pretty_exceptions_short`)
        bare = re.compile(rf"(?<![\w$.])(?<!::)(?<!->){re.escape(name)}(?![\w$])")
        uses = [n for n in uses if bare.search(lines[n - 1])] or uses
    else:  # qualified: written so before through a value (QA on mswjs/msw: `what calls
        # HttpResponse.json` pointed at `response.json()`, a fetch Response's, above the calls)
        qualifier = [part for part in re.split(r"\.|::|#", asked) if part][-2:-1]
        through = re.compile(
            rf"(?<![\w$]){re.escape(''.join(qualifier))}\s*(?:\.|::|->)\s*{re.escape(name)}(?![\w$])"
        )
        # then through a value named for it in another case (`app.use` of `const app = new
        # App()`), before another object's `use` (QA on tinyhttp/tinyhttp: `what calls
        # App.use` pointed examples/couchdb/index.js at `nano.db.use('todos')`)
        named = re.compile(through.pattern, re.IGNORECASE)
        uses = (
            [n for n in uses if qualifier and through.search(lines[n - 1])]
            or [n for n in uses if qualifier and named.search(lines[n - 1])]
            or uses
        )
    if not uses:
        return hit
    first = uses[0]
    around = [s for s in symbols if s.start_line <= first <= s.end_line]
    owner = min(around, key=lambda s: s.end_line - s.start_line) if around else None
    if owner is None:
        shown = [n for n in uses if n - first <= NEAR_LINES][:SNIPPET_LINES]
        lo, hi = shown[0], shown[-1]
    else:
        lo, hi = owner.start_line, min(owner.end_line, len(lines))
        long = hi - lo + 1 > MAX_RANGE_LINES
        reach = hi if not long else first + 2 * WINDOW_LINES
        shown = [n for n in uses if n <= min(hi, reach)][:SNIPPET_LINES]
        if long:
            lo, hi = max(lo, first - CONTEXT_LINES), min(hi, shown[-1] + CONTEXT_LINES)
    snippet = "\n".join(f"{n}: {_cut(lines[n - 1].strip())}" for n in shown)
    return hit.model_copy(update={"startLine": lo, "endLine": hi, "snippet": snippet})


def _at_string_uses(
    hit: t.SearchHit, lines: Sequence[str], whole: re.Pattern[str], slashes: bool
) -> t.SearchHit:
    """`hit` at the first line writing a name no file declares in a string literal of its
    code (not a comment, a docstring or a doc page), when no line uses it otherwise: a key
    a template, a config or a protocol names is used where it is matched (`"elapsed_precise"
    => ...`). QA on console-rs/indicatif: `where is elapsed_precise used` led with
    src/lib.rs, naming it in doc comments only, and pointed src/style.rs at other lines."""
    codes = outside_long_strings(lines)  # each string blanked (`""`), its comments left out
    if slashes:
        codes = outside_block_comments(codes)
    else:
        codes = [_HASH_COMMENT.sub("", STRING.sub('""', code)) for code in codes]
    imported = import_lines(lines)  # a module's specifier is where it comes from
    uses = [
        n
        for n, code in enumerate(codes, start=1)
        if '""' in code
        and n not in imported
        and not COMMENT_LINE.match(lines[n - 1])
        and any(whole.search(m.group()) for m in STRING.finditer(lines[n - 1]))
    ]
    if not uses:
        return hit
    shown = [n for n in uses if n - uses[0] <= NEAR_LINES][:SNIPPET_LINES]
    snippet = "\n".join(f"{n}: {_cut(lines[n - 1].strip())}" for n in shown)
    return hit.model_copy(update={"startLine": shown[0], "endLine": shown[-1], "snippet": snippet})


def _aliased_uses(lines: Sequence[str], imports: list[int], name: str, slashes: bool) -> list[int]:
    """The lines using the names the import lines `imports` give `name` (`{ proxyaddr as
    proxyAddr }`, `from .addr import proxyaddr as proxy_addr`), outside imports: the file
    calls it by that name. QA on tinyhttp/tinyhttp: `what calls proxyaddr` pointed
    packages/app/src/request.ts at its import, where `getIP` calls `proxyAddr(req, trust)`."""
    renamed = re.compile(rf"(?<![\w$]){re.escape(name)}\s+as\s+([A-Za-z_$][\w$]*)")
    aliases = {a for n in imports for a in renamed.findall(lines[n - 1]) if a != name}
    if not aliases:
        return []
    alias = re.compile(rf"(?<![\w$.])(?:{'|'.join(map(re.escape, sorted(aliases)))})(?![\w$])")
    imported = import_lines(lines)
    return [n for n in use_lines(lines, [], set(), alias, slashes) if n not in imported]


def _past_stored_use(
    locator: HitLocator,
    repo_id: str,
    hit: t.SearchHit,
    stored: int,
    symbols: Sequence[Declared],
    asked: str,
) -> t.SearchHit:
    """`hit`, on a file cut at its `stored` lines whose stored text uses the name `asked`
    nowhere, at the first declaration past that text referencing it (the references and
    declarations reach past it) other than those `asked` names, its head when longer than
    MAX_RANGE_LINES; no snippet, the text is not stored. QA on gorilla/mux: `what calls
    newRouteRegexp` pointed mux_test.go (100 KB) at `new(Route).HeadersRegexp(...)` lines,
    which share only the word `regexp`, while its call is at line 2786, in
    Test_copyRouteConf. A same-named method of another type is a caller (QA on
    apache/commons-io: `FileUtils.touch` calls `PathUtils.touch`)."""
    path = hit.entry.path
    name = last_part(asked)
    rows = locator.symbols.references_to(repo_id, [name])
    referencing = {row.symbol for row in rows if row.path == path}
    own = {s.fq_name for s in _declarations_of(asked, name, symbols)}
    past = [
        s
        for s in symbols
        if s.fq_name in referencing and s.end_line > stored and s.fq_name not in own
    ]
    if not past:
        return hit
    first = min(past, key=lambda s: (s.start_line, s.end_line - s.start_line))
    last = min(first.end_line, first.start_line + MAX_RANGE_LINES - 1)
    return hit.model_copy(update={"startLine": first.start_line, "endLine": last, "snippet": None})


def _local_declaration(name: str) -> re.Pattern[str]:
    """A line declaring `name` by a keyword (`const name =`, `function name(`, `def name(`,
    `func name(`, `fn name(`, `let name`): what the file's symbols may not record, as a
    function declared inside another."""
    return re.compile(
        rf"(?<![\w$.])(?:const|let|var|function\*?|def|func|fn)\s+{re.escape(name)}(?![\w$])"
    )


def _cut(text: str) -> str:
    return text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"


_SELF = ("self.", "this.", "Self::")  # a call of the enclosing type's own member


def _without_own_type_calls(
    found: list[int],
    lines: Sequence[str],
    symbols: Sequence[Declared],
    asked: str,
    name: str,
    whole: re.Pattern[str],
) -> list[int]:
    """`found` without the lines calling `name` only through `self` (`this`, `Self::`) inside
    a member of a type of the file that declares `name` itself, when the query qualifies the
    name by another type: that call is the own type's. QA on hyperium/hyper: `what calls
    Conn::poll_read_head` pointed dispatch.rs at `self.poll_read_head(cx)`, Dispatcher's own,
    not at `self.conn.poll_read_head(cx)` inside it."""
    qualifier = _owner(asked.replace("::", ".").replace("#", ".")).rpartition(".")[2].casefold()
    declared = {s.fq_name for s in symbols}  # a type of the file, not its module
    owners = {_owner(s.fq_name) for s in symbols if s.name == name} & declared
    owners = {o for o in owners if o.rpartition(".")[2].casefold() != qualifier}
    if not qualifier or not owners:
        return found
    members = [s for s in symbols if _owner(s.fq_name) in owners]

    def own_call(n: int) -> bool:
        line = lines[n - 1]
        through_self = all(line[: m.start()].endswith(_SELF) for m in whole.finditer(line))
        return through_self and any(s.start_line <= n <= s.end_line for s in members)

    return [n for n in found if not own_call(n)]


def _owner(fq_name: str) -> str:
    """What a declaration is a member of (`Dispatcher.poll_read` -> Dispatcher), else ""."""
    return fq_name.split("(", 1)[0].rpartition(".")[0]
