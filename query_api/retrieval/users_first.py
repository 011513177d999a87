"""A query for the users of a name gets them first: the files referencing it.

`what calls AddCallerSkip`, `callers of get_client_addr`, `where is X used?` ask for the code
using a declaration, which the cross-references know (related's `dependents`); keyword search
ranks the files holding the query's words, and on uber-go/zap the one caller of
`AddCallerSkip` came 4th-7th, below files that never name it. So for such a query the files
referencing a declaration of that name come first, those the ranking already holds in its
order, then the others by how many of their declarations use it, each with the reason
`uses:<name>`; the rest of the ranking follows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from processors.path_roles import Role, role_of
from processors.qualified_names import go_receivers
from processors.symbols.reference_sites import MACRO_BANG
from processors.tokenizer import tokenize
from query_api.retrieval.rust_visibility import seen_in
from query_api.symbols.dependents import is_test_path
from query_api.symbols.overloads import declared_name
from query_api.symbols.rust_paths import declaring_files, rust_segments
from schemas import tools as t
from schemas.retrieval import MAX_REASONS
from streams.stores.views.symbols import ReferenceRow, SymbolRow

SYMBOL_REASON = "symbol:"  # a reason naming a declaration the hit matched
REASON = "uses:"  # + the name the query asks the users of
# + the interface a Go type implements by its methods (go_implementers.py): it need not name it
IMPLEMENTS_REASON = "implements:"
PLACED_REASONS = (REASON, IMPLEMENTS_REASON)  # a hit placed first for what the query asks
MAX_DECLARATIONS = 50  # declarations of the name looked up (overloads, same-named methods)
# a Rust macro keeps its bang (`tri!`), as its declaration and its invocations are stored; an
# annotation or decorator is written with its `@` (`what uses @Named`), its name the one
# declared (QA on google/guice: `what uses @Named` matched no users form and ranked Named.java,
# Names.java and NamedImpl.java first, none of the files annotating with it)
_NAME = r"`?@?((?:[A-Za-z_$][\w$]*)(?:(?:\.|::|\#)[A-Za-z_$][\w$]*)*!?)(?:\(\))?`?"
# the name as a sentence writes it, with its kind: `what calls the StringSubstitutorReader
# constructor` (QA on apache/commons-text: no users form matched, so the declaring file led)
KINDS = (
    r"constructors?|methods?|functions?|class|interface|type|field|property|constant|enum"
    r"|macros?|traits?|structs?|modules?|packages?|crates?|protocols?|annotations?|decorators?"
    # a React component or hook (`what uses the Link component`, `the useBlocker hook`)
    r"|components?|hooks?"
)
_SUBJECT = rf"(?:the\s+)?{_NAME}(?:\s+(?:{KINDS}))?"


# an exception's users raise or throw it: `what raises SecurityError`, `where is X thrown`
# (QA on pallets/werkzeug: the one file raising SecurityError was not in the first five)
_USERS_FORMS = r"""^\s*(?:
      (?:what|who|which\s+\w+)\s+
        (?:calls|uses|references|invokes|imports(?:\s+from)?|requires|depends\s+on|raises|throws
          |implements|extends|subclasses|(?:inherits|derives)\s+from|instantiates|constructs
          |renders)
        \s+{_SUBJECT}
      |(?:which|what)\s+(?!{_AUXILIARY}\s)\w+\s+
        (?:call|use|reference|invoke|import(?:\s+from)?|require|depend\s+on
          |raise|throw|implement|extend|subclass|(?:inherit|derive)\s+from|instantiate|construct)
        \s+{_SUBJECT}
      |where\s+(?:do|does)\s+(?:the\s+)?\w+\s+(?:call|use|reference|invoke|import|raise|throw)
        \s+{_SUBJECT}
      |(?:find\s+|show\s+(?:me\s+)?|list\s+|give\s+me\s+)?(?:all\s+|the\s+)?(?:the\s+)?
        (?:callers|usages|uses|references|call\s+sites|implementations|implementers
          |implementors|subclasses)\s+(?:of|to|for)\s+{_SUBJECT}
      |where\s+(?:is|are)\s+{_SUBJECT}\s+
        (?:used|called|referenced|invoked|imported|raised|thrown|instantiated|constructed
          |rendered)
      |what\s+(?:would\s+|will\s+|could\s+|might\s+)?breaks?\s+if\s+(?:i|we|you|one)\s+
        {_CHANGE}\s+{_SUBJECT}
      |what\s+(?:is|are|would\s+be|will\s+be)\s+affected\s+
        (?:by\s+{_CHANGING}|if\s+(?:i|we|you|one)\s+{_CHANGE})\s+{_SUBJECT}
      |(?:the\s+)?impact\s+of\s+{_CHANGING}\s+{_SUBJECT}
    )\s*\??\s*$"""
# the verbs of an impact question: `what breaks if I change X`, `the impact of renaming X`
_CHANGE = r"(?:change|modify|rename|remove|delete|edit)"
_CHANGING = r"(?:changing|modifying|renaming|removing|deleting|editing)"


# `which classes extend X` names its users' kind; `what does extend do` asks what `extend`
# does, its second word an auxiliary (QA on python-jsonschema/jsonschema: it asked for the
# users of `do`)
_AUXILIARY = r"(?:does|do|did|is|are|was|were|can|could|should|would|will|must|might)"


def users_form(subject: str) -> re.Pattern[str]:
    """The forms of a users query, `subject` the pattern of what it asks the users of."""
    forms = _USERS_FORMS.replace("{_CHANGE}", _CHANGE).replace("{_CHANGING}", _CHANGING)
    forms = forms.replace("{_AUXILIARY}", _AUXILIARY)
    return re.compile(forms.replace("{_SUBJECT}", subject), re.IGNORECASE | re.VERBOSE)


_USERS = users_form(_SUBJECT)

# a file's path: folders, then a name with an extension (`src/drivers/utils/index.ts`)
_SOURCE_EXTENSIONS = r"(?:[jt]sx?|[mc][jt]s|py|pyi|rs|go|java|kt|rb|php|cs|c|h|cc|cpp|hpp)"
_PATH = rf"`?((?:[\w.@~-]+/)+[\w.@-]+|[\w@-][\w.@-]*\.{_SOURCE_EXTENSIONS})`?"
_FILE_IMPORTERS = re.compile(
    rf"""^\s*(?:
      (?:what|who|which\s+\w+)\s+(?:imports(?:\s+from)?|uses|requires|depends\s+on)\s+{_PATH}
      |which\s+\w+\s+(?:import(?:\s+from)?|use|require|depend\s+on)\s+{_PATH}
      |where\s+(?:is|are)\s+{_PATH}\s+(?:imported|used|required)
      |(?:find\s+|show\s+|list\s+)?(?:all\s+|the\s+)?(?:importers|dependents|users)\s+of\s+{_PATH}
    )\s*\??\s*$""",
    re.IGNORECASE | re.VERBOSE,
)

FindUsers = Callable[[str], list[str]]  # a name -> the files using it, best first
Hydrate = Callable[[str], t.SearchHit | None]


# a package written with a hyphen (`libphonenumber-js`, `serde-json`), which no code name
# holds: asked for its importers only (QA on typestack/class-validator: `which files import
# libphonenumber-js` matched no users form)
_PACKAGE = r"`?([A-Za-z_@][\w.]*(?:-[\w.]+)+)`?"
_PACKAGE_IMPORTERS = re.compile(
    rf"""^\s*(?:
      (?:what|who|which\s+\w+)\s+(?:imports|requires|depends\s+on)\s+(?:the\s+)?{_PACKAGE}
      |which\s+\w+\s+(?:import|require|depend\s+on)\s+(?:the\s+)?{_PACKAGE}
      |where\s+(?:is|are)\s+(?:the\s+)?{_PACKAGE}\s+(?:imported|required)
      |(?:find\s+|show\s+|list\s+)?(?:all\s+|the\s+)?importers\s+of\s+(?:the\s+)?{_PACKAGE}
    )(?:\s+(?:package|crate|module|library))?\s*\??\s*$""",
    re.IGNORECASE | re.VERBOSE,
)


# `where is elapsed_precise handled`: the code handling a name written as code (a template's
# key, an event, a variant) uses it. QA on console-rs/indicatif matched no users form and led
# with src/lib.rs, naming the key in its docs only; `where is the error handled` asks about a
# word, a concept as often as a name
_HANDLED = re.compile(rf"^\s*where\s+(?:is|are)\s+{_SUBJECT}\s+handled\s*\??\s*$", re.IGNORECASE)
# `where is the Binder interface implemented`: an interface's (trait's, protocol's) implementers,
# its kind written (`where is getInstance implemented` asks for a method's definitions). QA on
# google/guice: it ranked Binder.java first and Elements.java, declaring RecordingBinder
# implements Binder, fourth with no `uses:` reason
_IMPLEMENTED = re.compile(
    rf"^\s*where\s+(?:is|are)\s+(?:the\s+)?{_NAME}\s+(?:interface|trait|protocol|abstract\s+class)"
    r"\s+(?:implemented|extended|subclassed)\s*\??\s*$",
    re.IGNORECASE,
)
_CODE_MARK = re.compile(r"(?<=\s)`|\w[_.:$]\w|[a-z][A-Z]|\s[A-Z]")


def used_name(query: str) -> str | None:
    """The name whose users the query asks for (`get_client_addr`, `Logger.AddCallerSkip`,
    Go's `(*FlagSet).getFlagType` as `FlagSet.getFlagType`, `the Upgrader's CheckOrigin
    field` as `Upgrader.CheckOrigin`; a hyphenated package whose importers it asks for,
    `libphonenumber-js`), else None."""
    found = _USERS.match(_POSSESSIVE.sub(r"\1.\2", go_receivers(query)))
    found = found or _IMPLEMENTED.match(query)
    if found is None:
        found = _HANDLED.match(query)
        if found is not None and _CODE_MARK.search(found.group(0)) is not None:
            return next((group for group in found.groups() if group), None)
        package = _PACKAGE_IMPORTERS.match(query)
        return None if package is None else next(g for g in package.groups() if g)
    name = next((group for group in found.groups() if group), None)
    if name is not None and not name.endswith(MACRO_BANG) and _macro_named(query, name):
        return name + MACRO_BANG  # stored so, declared and invoked (QA on serde-rs/json)
    return name


# a member written as its type's possessive, what it is said after it: `the Upgrader's
# CheckOrigin field` (QA on gorilla/websocket: `where is the Upgrader's CheckOrigin field
# used` asked for no users and pointed server.go at the field's declaration), the type's
# kind before it at times (`the ObjectConsKeyExpr type's Value method`, `the Token struct's
# Range field`: QA on hashicorp/hcl)
_POSSESSIVE = re.compile(
    r"(?:\bthe\s+)?\b([A-Z]\w*)(?:\s+(?:type|struct|class|interface|enum|trait|record|object))?"
    r"['\u2019]s\s+([A-Za-z_]\w*)"
    r"(?:\s+(?:field|method|property|attribute|member|function|option))?\b"
)


def as_members(query: str) -> str:
    """`query` with each member written as its type's possessive as `Type.member` (`the
    Upgrader's CheckOrigin field` -> `Upgrader.CheckOrigin`)."""
    return _POSSESSIVE.sub(r"\1.\2", query)


def _macro_named(query: str, name: str) -> bool:
    """Whether the query calls `name` a macro (`where is the deserialize_number macro
    used`): a Rust macro's declaration and invocations are stored with its bang, so the
    name alone found the method `Deserializer.deserialize_number` instead."""
    return re.search(rf"{re.escape(name)}`?\s+macros?\b", query, re.IGNORECASE) is not None


def imported_file(query: str) -> str | None:
    """The file whose importers the query asks for by its path (`what imports
    src/drivers/utils/index.ts`, `who uses utils/index.ts?`), else None: a path is no name
    used_name reads. QA on unjs/unstorage: such a query placed no importer, and the file
    itself led."""
    found = _FILE_IMPORTERS.match(query)
    if found is None:
        return None
    return next((group for group in found.groups() if group), None)


# `what imports X`; `what depends on X`, `who requires X` (QA on tinyhttp/tinyhttp: `which
# packages depend on regexparam` placed none of its importers); `which files import (from) X`
# (QA on nedbat/coveragepy: `which files import from coverage.types` matched no users form)
_IMPORTERS = re.compile(r"\b(?:import(?:s|ed)?|depends?\s+on|requires?)\b", re.IGNORECASE)


def asks_importers(query: str) -> bool:
    """Whether a users query asks for the importers (`what imports headers`, `where is X
    imported`): a module of the name is what it means, when there is one (QA on
    hyperium/hyper: src/headers.rs beside many `headers` fields)."""
    return _IMPORTERS.search(query) is not None


# a users query asking for the types implementing or extending the name (`what implements
# StringLookup`, `subclasses of X`, `what subclasses X`, `which classes inherit from X`): QA
# on apache/commons-text, where such a query matched no form and ranked files by the word
# `implements`; on benoitc/gunicorn, `which classes inherit from Worker` matched none
_IMPLEMENTERS = re.compile(
    r"\b(?:implements|extends|implement|extend|implementations|implementers|implementors"
    r"|subclass(?:es)?|(?:inherits?|derives?)\s+from)\b",
    re.IGNORECASE,
)


def asks_implementers(query: str) -> bool:
    """Whether a users query asks for the types implementing or extending its name."""
    return _IMPLEMENTERS.search(query) is not None or _IMPLEMENTED.match(query) is not None


# a type's `extends`/`implements` clause follows the head declaring it (`class A<T extends
# B>`), a clause before it (Java's `extends B implements Name`) or nothing (a clause on a line
# of its own); TypeScript's other `extends`, a generic constraint (`<H extends Array<X>>`) or
# a conditional type (`K extends 'ws' ? A : X`), follows none (QA on mswjs/msw: `what extends
# RequestHandler` marked executeHandlers.ts and isHandlerKind.ts)
_CLAUSE = re.compile(r"\b(?:extends|implements)\s")
_TYPE_HEAD = re.compile(r"\b(?:class|interface|enum|record|trait|object|struct)(?:\s+[\w$]+)?$")
_HEAD_CHARS = 200  # of a line, read before a clause for the head declaring the type
_BETWEEN_CLAUSES = re.compile(r"[\w$.<>,\s]*")  # the supertypes of the clause before
# type arguments, one level nested (`Comparable<String>`, `Map<K, List<V>>`)
_TYPE_ARGUMENTS = r"(?:<[^<>{};]*(?:<[^<>{};]*>[^<>{};]*)*>)?"
# the supertypes listed before the one asked for (`Comparable<String>, `)
_SUPERTYPES = rf"(?:[\w$.]+\s*{_TYPE_ARGUMENTS}\s*,\s*)*"
# type parameters, two levels of them nested (`<S, T: Iterator<Item = S>>`, `<Vec<T>>`,
# `<W: Write<Error = Box<E>>>`): QA on console-rs/indicatif, the blanket `impl<S, T:
# Iterator<Item = S>> ProgressIterator for T` was read up to its first `>` and implemented
# nothing
_NESTED = r"<[^<>]*(?:<[^<>]*>[^<>]*)*>"
_GENERICS = rf"<[^<>]*(?:{_NESTED}[^<>]*)*>"
_OTHER_SUPERTYPE_FORMS = (
    rf"\bimpl\b(?:\s*{_GENERICS})?\s+(?:[\w:]+::)?{{word}}\b(?:{_GENERICS})?\s+for\b"
    # Python's base named through its module (`class SyncWorker(base.Worker)`: QA on
    # benoitc/gunicorn, `what extends Worker` left out the four workers written so)
    r"|\bclass\s+\w+\s*\([^)]*(?<![\w.])(?:\w+\.)*{word}\b"
    # `struct A: Name`, `class A<T> : Name`; not a bound of a type parameter (`struct
    # Emitter<F: Formatter>`: QA on serde-rs/json, `what implements Formatter` took two such
    # structs' lines for src/ser.rs's, above `impl Formatter for CompactFormatter`)
    r"|\b(?:class|struct|object|interface|record)\s+\w+"
    rf"(?:\s*{_GENERICS})?\s*:\s*[^{{{{;=]*(?<![\w$]){{word}}(?![\w$])"
)


def implementers(name: str, bodies: Mapping[str, str]) -> set[str]:
    """The files of `bodies` declaring a type that implements or extends `name` (its last
    part): `class A extends B implements Name, C` (Java, TypeScript, PHP), `impl Name for A`
    (Rust), `class A(Name)` (Python), `class A : Name` (Kotlin, C#, Swift), on lines that
    are no comment."""
    declares = declares_subtype_of(name)
    return {path for path, body in bodies.items() if any(map(declares, body.split("\n")))}


def declares_subtype_of(name: str) -> Callable[[str], bool]:
    """Whether one line, no comment, declares a type implementing or extending `name` (its
    last part), as implementers reads a file's lines."""
    word = re.escape(last_part(name))
    listed = re.compile(rf"{_SUPERTYPES}(?:[\w$]+\.)*{word}(?![\w$])")
    other = re.compile(_OTHER_SUPERTYPE_FORMS.format(word=word))

    def declares(line: str) -> bool:
        if COMMENT_LINE.match(line):
            return False
        return _lists_supertype(line, listed) or other.search(line) is not None

    return declares


def _lists_supertype(line: str, listed: re.Pattern[str]) -> bool:
    """Whether an `extends`/`implements` clause of a type's declaration on `line` lists the
    supertype `listed` matches (the comment above _CLAUSE)."""
    clause_end = -1  # where the last clause of a declaration began its supertypes
    indent = len(line) - len(line.lstrip())
    for clause in _CLAUSE.finditer(line):
        head = line[max(0, clause.start() - _HEAD_CHARS) : clause.start()].rstrip()
        declared = clause.start() == indent
        declared = declared or _TYPE_HEAD.search(_without_type_parameters(head)) is not None
        if clause_end >= 0 and _BETWEEN_CLAUSES.fullmatch(line, clause_end, clause.start()):
            declared = True
        if not declared:
            clause_end = -1
            continue
        if listed.match(line, clause.end()):
            return True
        clause_end = clause.end()
    return False


def _without_type_parameters(text: str) -> str:
    """`text` without the type parameters it ends with (`class A<T extends B<C>>` ->
    `class A`), as written when they do not close."""
    if not text.endswith(">"):
        return text
    depth = 0
    for at in range(len(text) - 1, -1, -1):
        depth += {">": 1, "<": -1}.get(text[at], 0)
        if depth == 0:
            return text[:at].rstrip()
    return text


_RAISERS = re.compile(r"\b(?:raises|throws|raise|throw|raised|thrown)\b", re.IGNORECASE)


def asks_raisers(query: str) -> bool:
    """Whether a users query asks what raises or throws its name (`who throws X`)."""
    return _RAISERS.search(query) is not None


def raisers(name: str, bodies: Mapping[str, str]) -> dict[str, list[int]]:
    """The files of `bodies` raising or throwing `name` (its last part): `throw new X(`
    (Java, C#, TypeScript), `throw X(`, `raise X` (Python, Ruby), each with the numbers of
    the lines doing so, comments left out. For an exception no repository file declares (the
    platform's `IllegalArgumentException`), which the cross-references cannot follow."""
    word = re.escape(last_part(name))
    pattern = re.compile(rf"\b(?:throw(?:\s+new)?|raise)\s+(?:[\w$]+\.)*{word}(?![\w$])")
    out: dict[str, list[int]] = {}
    for path, body in bodies.items():
        lines = [
            n
            for n, line in enumerate(body.split("\n"), start=1)
            if pattern.search(line) and not COMMENT_LINE.match(line)
        ]
        if lines:
            out[path] = lines
    return out


CALLED_KINDS = ("Method", "Function")  # a name only these declare: its users call it


def is_called(name: str, rows: Sequence[SymbolRow]) -> bool:
    """Whether every declaration of `rows` that `name` names is a function or method (and
    there is one): its users call it, `.URL(`, not `req.URL.Path`."""
    declared = declarations_named(name, rows)
    return bool(declared) and all(row.kind in CALLED_KINDS for row in declared)


def value_declarations(name: str, declared: list[SymbolRow]) -> list[SymbolRow]:
    """Of `declared` (those `name` names, case aside), the ones it may mean: a name written
    as a value, a lower-case initial and a capital inside (`invalidateDependents`), means
    no declaration capitalised (a type `InvalidateDependents`). QA on pmndrs/jotai: `what
    calls invalidateDependents` was answered by the users of the type alias, where the
    value is a local bound from a tuple and called in two functions."""
    return [row for row in declared if value_spelled(last_part(name), row.name)]


def value_spelled(written: str, declared: str) -> bool:
    """Whether a name written so may mean one declared so: not a capitalised declaration when
    written as a value (a lower-case initial, a capital inside)."""
    as_value = written[:1].islower() and any(c.isupper() for c in written[1:])
    return not (as_value and declared[:1].isupper())


def last_part(name: str) -> str:
    """A qualified name's declared name: `Logger.AddCallerSkip` -> AddCallerSkip; a JS or TS
    module's file name is no qualified name (`validator.js` is no member `js`)."""
    if _MODULE_FILE.fullmatch(name):
        return name
    return re.split(r"\.|::|#", name)[-1]


_MODULE_FILE = re.compile(r"[\w@-][\w.@-]*\.(?:[mc]?js|jsx|[mc]?ts|tsx)")


def users_order(counts: Mapping[str, int], own: set[str]) -> list[str]:
    """The files using a name (-> how many of their declarations do), best first: code, then
    tests, then a doc's code; the declaring files after the others of their kind, then the
    most using first. QA on sinclairzx81/typebox: `what calls Format.Set` placed the docs
    site's 1 MB minified bundle, docs/index.js, first."""
    doc = {path: role_of(path) == Role.DOC for path in counts}
    return sorted(counts, key=lambda p: (doc[p], is_test_path(p), p in own, -counts[p], p))


def declarations_named(name: str, rows: Sequence[SymbolRow]) -> list[SymbolRow]:
    """Of `rows` (the declarations of `name`'s last part), those `name` names: by its last
    part alone, or qualified as the views store it, whole (`Policy.limited`, a Rust method,
    is stored without a module) or after a module (`flask.app.Flask.run`); else, for a Rust
    path, the declaration its longest declared tail names, a last name alone only in a file
    of a module the path names (`wait::timeout`: `timeout` in blocking/wait.rs).
    QA on seanmonstar/reqwest: `what calls Policy::limited` and `what calls wait::timeout`
    found no declaration, so the callers were not placed first."""
    wanted = name.replace("::", ".").replace("#", ".").casefold()
    # an overload is stored with its parameter types (`MultiDict.getlist(self,str)`): QA on
    # pallets/werkzeug, `callers of MultiDict.getlist` found no declaration of it
    found = [
        row
        for row in rows
        if wanted in (row.name.casefold(), declared_name(row.fq_name).casefold())
        or declared_name(row.fq_name).casefold().endswith("." + wanted)
    ]
    segments = rust_segments(name)
    if found or segments is None:
        return found

    def declared_in(dotted: str) -> list[str]:
        folded = dotted.casefold()
        return sorted({row.path for row in rows if row.fq_name.casefold() == folded})

    named = declaring_files(segments, declared_in)
    if named is None:
        return []
    dotted, files = named[0].casefold(), set(named[1])
    return [row for row in rows if row.fq_name.casefold() == dotted and row.path in files]


def loads_module(row: SymbolRow) -> bool:
    """Whether a declaration is a Rust `mod name;`, which loads the module's file: its users
    are the module's importers, not references to the one-line declaration (QA on
    sharkdp/fd: `who imports filesystem` placed no user, for main.rs's `mod filesystem;`)."""
    return row.path.endswith(".rs") and row.kind == "Namespace" and row.start_line == row.end_line


def distinctive(name: str) -> bool:
    """Whether a name is of several words (`getMatchingOptions`, `parse_args`): one the
    repository declares once is what its bare references mean, where a one-word name
    (`add`, `parse`) is as often another library's. A Rust macro written with its bang
    (`tri!`) is: its invocations import nothing, so its bare references are all there is (QA
    on serde-rs/json: `what calls tri!` placed no user)."""
    return name.endswith(MACRO_BANG) or len(tokenize(name)) >= 2


def bare_callers(
    refs: Sequence[ReferenceRow], own: set[str], declared: Sequence[SymbolRow] = ()
) -> dict[str, list[str]]:
    """The files of `refs` outside `own`, each with the declarations in it that reference
    the name. For a member the dependents count only references an import qualified, so a
    Java class calling a method of its own package's class (no import) was no caller: QA on
    apache/commons-cli, `what calls Options.getMatchingOptions`. For `declared` private Rust
    functions, only the files that can see them (rust_visibility), their own included: then
    no file's text is searched for a method call of the name (`uri.path_and_query()`)."""
    seen = seen_in(declared)
    if seen is not None:
        refs = [r for r in refs if r.path in seen[0] or r.path.startswith(tuple(seen[1]))]
        own = set()
    out: dict[str, list[str]] = {}
    for ref in refs:
        if ref.path not in own:
            symbols = out.setdefault(ref.path, [])
            if ref.symbol and ref.symbol not in symbols:
                symbols.append(ref.symbol)
    return out


# a line that is only a comment (`//`, `#`, `/*`, ` * ` of a block, `--`)
COMMENT_LINE = re.compile(r"^\s*(?://|#|/\*|\*|--)")
# a string literal on one line: a message naming the name (`"while using ContinueOnError"`)
# is no use of it; no `<`, `>` or `&` between single quotes, which Rust's lifetimes span
# (`impl<'a> Foo<'a>`)
# A JS/TS template literal is one with its escaped backticks and its placeholders, another
# template inside one included (`${`${parentPath}/*`}`): QA on remix-run/react-router, that
# `/*` opened a block comment (outside_block_comments) and hid hooks.tsx's calls below it
_TEMPLATE = r"`(?:\\.|\$\{(?:`(?:\\.|[^`\\])*`|[^{}`])*\}|\$(?!\{)|[^`\\$])*`"
STRING = re.compile(r""""(?:\\.|[^"\\])*"|'(?:\\.|[^'\\<>&])*'|""" + _TEMPLATE)
# a comment after code (strings blanked first): `scheme string // the built URL` names no use
# (QA on gorilla/mux, `what calls Route.URL` pointed mux_test.go at one)
SLASH_COMMENT = re.compile(r"(?:^|(?<=\s))//.*")
# where `#` starts a comment (and `//` divides, `/*` globs): no `//` nor `/* */` comments
HASH_COMMENTED = (".py", ".pyi", ".rb", ".sh", ".toml", ".yaml", ".yml")


_TRIPLE = re.compile(r'"""|\'\'\'')


def outside_long_strings(lines: Sequence[str]) -> list[str]:
    """Each line less what of it lies inside a triple-quoted string (a Python docstring, a
    Kotlin or Java text block): QA on pallets/werkzeug, `what raises SecurityError` pointed
    sansio/utils.py at its docstring's `:raise .SecurityError: If the host is not trusted.`,
    40 lines above the raise. A one-line string is left to the caller's quotes."""
    out: list[str] = []
    inside: str | None = None
    for line in lines:
        code: list[str] = []
        at = 0
        while at <= len(line):
            if inside is not None:
                end = line.find(inside, at)
                if end < 0:
                    break
                at, inside = end + 3, None
                continue
            found = _TRIPLE.search(line, at)
            if found is None:
                code.append(line[at:])
                break
            code.append(line[at : found.start()])
            end = line.find(found.group(), found.end())
            if end < 0:
                inside = found.group()
                break
            at = end + 3
        out.append("".join(code))
    return out


def outside_block_comments(lines: Sequence[str]) -> list[str]:
    """Each line with its one-line strings blanked (`""`), less its `//` comment and what
    of it lies inside a `/* ... */` comment, over lines: a Go package's doc.go writes its
    documentation in one, code examples included (QA on gorilla/mux, `what calls
    Router.Use` ranked doc.go's `r.Use(simpleMw)` first)."""
    out: list[str] = []
    inside = False
    for line in lines:
        text = SLASH_COMMENT.sub("", STRING.sub('""', line)) if not inside else line
        code: list[str] = []
        at = 0
        while at <= len(text):
            if inside:
                end = text.find("*/", at)
                if end < 0:
                    break
                at, inside = end + 2, False
                text = text[:at] + SLASH_COMMENT.sub("", STRING.sub('""', text[at:]))
                continue
            start = text.find("/*", at)
            if start < 0:
                code.append(text[at:])
                break
            code.append(text[at:start])
            at, inside = start + 2, True
        out.append("".join(code))
    return out


# a declaration's modifiers before `static` (TypeScript, Java, C#, PHP)
_STATIC = re.compile(
    r"(?:(?:public|private|protected|internal|export|final|async|override|readonly|abstract"
    r"|sealed|unsafe|extern)\s+)*static\s"
)


def is_static(signature: str) -> bool:
    """Whether a declaration's signature declares a static member (`static json(...)`,
    `public static String wrap(...)`): one called through its type, never a value."""
    return _STATIC.match(signature) is not None


def member_users(
    name: str, bodies: Mapping[str, str], *, calls: bool = False, through: str | None = None
) -> dict[str, list[int]]:
    """The files of `bodies` using `name` as a member (`f.getFlagType(...)`), each with the
    numbers of the lines doing so, comments left out; with `calls` (a method's users), only
    those calling it (`.URL(`: QA on gorilla/mux, `what calls Route.URL` counted mux.go's
    `req.URL.Path`, http.Request's field). A Go method is called through a value, which the
    cross-references do not resolve to its declaration: QA on spf13/pflag, `what calls
    getFlagType` found none of its 34 callers. With `through` (a static member's type),
    only its uses through that type (`HttpResponse.json(`: QA on mswjs/msw, `what calls
    HttpResponse.json` counted `response.json()`, a fetch Response's)."""
    called = r"\s*(?:\[[^\]]*\]\s*)?\(" if calls else r"(?![\w$])"  # `.Do[T](`: generic
    owner = rf"(?<![\w$]){re.escape(through)}" if through else ""
    member = re.compile(rf"{owner}\.{re.escape(name)}{called}")
    out: dict[str, list[int]] = {}
    for path, body in bodies.items():
        split = body.split("\n")
        codes = (
            outside_long_strings(split)
            if path.endswith((".py", ".pyi"))
            else split
            if path.endswith(HASH_COMMENTED)
            else outside_block_comments(split)
        )
        lines = [
            n
            for n, (line, code) in enumerate(zip(split, codes, strict=True), start=1)
            if member.search(code) and not COMMENT_LINE.match(code)
        ]
        if lines:
            out[path] = lines
    return out


def qualifier(name: str) -> str | None:
    """The type or module a qualified name is a member of (`ExitCode::exit` -> ExitCode,
    `Logger.AddCallerSkip` -> Logger), else None."""
    parts = re.split(r"\.|::|#", name)
    return parts[-2] if len(parts) > 1 and parts[-2] else None


def naming_qualifier(qualifier: str, bodies: Mapping[str, str]) -> set[str]:
    """The files of `bodies` writing `qualifier` as a word (an import, a type, a variant):
    where a one-word member (`exit`) is used through a value, the type the query names tells
    its calls from another type's `exit`. Comment lines are left out: QA on
    apache/commons-text, StrSubstitutor.java's Javadoc `use {@link StringSubstitutor}
    instead` made its calls of its own `replace` users of `StringSubstitutor.replace`."""
    word = re.compile(rf"(?<![\w$]){re.escape(qualifier)}(?![\w$])")
    return {
        path
        for path, body in bodies.items()
        if word.search(body)
        and any(word.search(line) and not COMMENT_LINE.match(line) for line in body.split("\n"))
    }


def users_first(
    hits: list[t.SearchHit],
    users: list[str],
    name: str,
    hydrate: Hydrate,
    *,
    file: bool = False,
    reason: str = REASON,
) -> list[t.SearchHit]:
    """`hits` with the files in `users` first: those `hits` holds in its order, then the
    others in `users`' order (brought in by `hydrate`), each with the reason `uses:<name>`
    (the file's name for the users of a `file`, a package specifier whole; `reason` for
    another prefix)."""
    wanted = set(users)
    why = reason + (_file_label(name) if file else last_part(name))
    held = [hit for hit in hits if hit.entry.kind == "File" and hit.entry.path in wanted]
    if not file:  # code before tests, a file declaring the name after the others' code
        held = sorted(held, key=lambda hit: _users_order(hit, last_part(name)))
    placed = {hit.entry.path for hit in held}
    brought = [hydrate(path) for path in users if path not in placed]
    first = [*held, *(hit for hit in brought if hit is not None)]
    top = max((hit.score for hit in hits), default=0.0)
    marked = [
        hit.model_copy(
            update={
                "score": max(hit.score, top),
                "reasons": [why, *[r for r in hit.reasons if r != why][: MAX_REASONS - 1]],
            }
        )
        for hit in first
    ]
    shown = {hit.entry.path for hit in marked}
    rest = [hit for hit in hits if hit.entry.kind != "File" or hit.entry.path not in shown]
    return [*marked, *rest]


def _file_label(written: str) -> str:
    """How a `uses:` reason names a file the query wrote: its file name (`index.ts` for
    src/drivers/utils/index.ts), or a package specifier whole (`@tinyhttp/cookie`, not
    `cookie`: QA on tinyhttp/tinyhttp)."""
    name = written.rpartition("/")[2]
    return name if "." in name else written


def _users_order(hit: t.SearchHit, name: str) -> tuple[bool, bool]:
    """A user's place among those the answer holds, as the ladder orders users (code before
    tests, the files declaring the name after other files' code), the search's order within
    each: the declaring file, a user when its own code calls the name (own_file_users.py),
    was first of `what calls cell_len` on Textualize/rich, above twenty files calling it.
    It declares the name when a `symbol:` reason names a declaration of it."""
    declares = any(
        why.startswith(SYMBOL_REASON) and last_part(why[len(SYMBOL_REASON) :]) == name
        for why in hit.reasons
    )
    return is_test_path(hit.entry.path or ""), declares
