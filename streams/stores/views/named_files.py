"""The files a query names as files: by path, by a compound name that is a file's stem, or by a
module's qualified name.

Each is as exact as a path: an agent that writes `starlette.exceptions` means
starlette/exceptions.py (not starlette/middleware/exceptions.py, whose declarations the
request's other words name), and one that writes `find_route` alone means find_route.py.
One FTS5 phrase read of the path column per name, then an exact check of the paths it found.
"""

from __future__ import annotations

import re
import sqlite3

from processors.language import LANGUAGE_BY_EXTENSION
from processors.path_roles import Role, is_build_file_name, role_of
from processors.qualified_names import qualified_names
from processors.query_mentions import phrase_query
from processors.query_scope import after_scope
from processors.symbols.languages.rust import CRATE_ROOT_NAMES, child_candidates, module_dir
from processors.tokenizer import tokenize
from streams.stores.views.entry_files import entry_files
from streams.stores.views.extension_builds import extension_build_files
from streams.stores.views.language_files import language_files
from streams.stores.views.make_files import makefile_files
from streams.stores.views.man_pages import man_pages
from streams.stores.views.read import files_with_path_words, paths_matching
from streams.stores.views.task_files import task_runner_files

MAX_PATH_LOOKUP = 2000  # rows a path query's phrase read may return
# the languages whose qualified names spell modules' paths: Go's `middleware.RealIP` and
# JavaScript's `app.router` name a declaration or a property, whatever file is named so
MODULE_SUFFIXES = (".py", ".pyi", ".rs")
# the file that stands for its folder when a module is named by the folder's name
PACKAGE_FILES = frozenset({"__init__.py", "__init__.pyi", "mod.rs"})
# a written name ending so is a file's name (`pyproject.toml`), not a module's
FILE_EXTENSIONS = frozenset(
    {"py", "pyi", "rs", "toml", "json", "yaml", "yml", "md", "rst", "txt", "cfg", "ini", "lock"}
)
# a Rust path's leading part that names where to look from, not a folder: what follows it
# is a module from the crate's root down
RELATIVE_ROOTS = frozenset({"crate", "self", "super"})


def _unseparated(path: str) -> str:
    """`path` casefolded, its file name without `-` and `_`: a lookup's every spelling alike
    (test/functional/validation-error.spec.ts names src/validation/ValidationError.ts)."""
    folders, _, name = path.casefold().rpartition("/")
    name = name.replace("-", "").replace("_", "")
    return f"{folders}/{name}" if folders else name


def path_named_files(
    conn: sqlite3.Connection, repo_id: str, query: str, *, as_written: bool = True
) -> list[str]:
    """Files the query names by path: the whole query (one word with a `/` or a `.`, a
    place written after it left out: `src/app.py:12`), or a path among a request's first
    words (`in examples/simple/main.go make ...`, `fs.test.ts ignore dot-prefix`), is the
    file's repo-relative path or its trailing segments, compared case-insensitively unless
    some match as written; a bare file name written in a sentence names a file only when one
    file is called so (`pyproject.toml` in poetry names its fixtures' too: it is the kind of
    file, not one). `as_written=False`: every case alike, for a lookup of the files a name
    may mean (a test's subject: test/lazy.ts names src/Lazy.ts, and validation-error.ts names
    ValidationError.ts: its file name's `-` and `_` left out, tested_by)."""
    whole = without_place(whole_path(query)) or worded_place_path(query)
    found: set[str] = set()
    for wanted in [whole] if whole else opening_paths(query):
        terms = tuple(tokenize(wanted))
        if not terms:
            continue
        phrase = phrase_query(terms, "path_terms")
        folded = wanted.casefold() if as_written else _unseparated(wanted)
        named = [
            path
            for path in paths_matching(conn, repo_id, phrase, MAX_PATH_LOOKUP)
            if (key := path.casefold() if as_written else _unseparated(path)) == folded
            or key.endswith("/" + folded)
        ]
        # a path matching as written is the one meant: `CHANGES.rst`, not docs/changes.rst
        if as_written:
            named = [p for p in named if p == wanted or p.endswith("/" + wanted)] or named
        if whole or "/" in wanted or len(named) == 1:
            found.update(named)
        else:  # `package.json` of many: `the cookie package`'s one (QA on tinyhttp/tinyhttp)
            found.update(package_scoped(named, query))
    if whole and not found and _ABSOLUTE.match(query.strip().replace("\\", "/")):
        found.update(checkout_files(conn, repo_id, whole))
    found.update(run_module_files(conn, repo_id, query))
    return sorted(found)


# a question asking where one file is, by its name or its name less its extension: `where is
# the tsconfig`, `where is the tsconfig.json`, `show me the Makefile`; after at most two words
# naming its folder (`where is the JSON syntax spec`: json/spec.md)
_WHERE_IS_FILE = re.compile(
    r"^\s*(?:where\s+(?:is|are|do\s+i\s+find)|show\s+me|open|find)\s+(?:the\s+|our\s+)?"
    r"((?:[\w@.-]+\s+){0,2}?)([\w@.-]+)(?:\s+file)?\s*\??\s*$",
    re.IGNORECASE,
)
_FOLDER_WORD = 4  # letters a qualifier needs to name a folder holding it (`syntax`: hclsyntax)
# which of a tool's config files is in use, named as `where is the jest config` names it:
# `which jest config is used`, `what eslint config does the project use`, `which tsconfig is
# used` (QA on react-hook-form/react-hook-form ranked scripts/jest/jest.config.js third, below
# a rollup config's `used by` comment)
_WHICH_CONFIG = re.compile(
    r"^\s*(?:which|what)\s+((?:[\w@.-]+\s+){0,2}?)(config|configuration|tsconfig)"
    r"(?:\s+files?)?\s+(?:is|are|does|do)\b[\w\s-]*\??\s*$",
    re.IGNORECASE,
)


def asked_file(conn: sqlite3.Connection, repo_id: str, query: str) -> list[str]:
    """The files a `where is the X` question asks for: those called X, or X and an extension
    (`tsconfig` -> tsconfig.json), nearest the root when several are (a monorepo's root
    tsconfig.json, not each package's). QA on tinyhttp/tinyhttp: `where is the tsconfig`
    ranked two packages' tsconfig.json 3rd and 4th and the root's below them, a bare name
    that several files share naming none. Words before the name (`the JSON syntax spec`)
    pick the files whose folders they name (_in_folders)."""
    entry = entry_files(conn, repo_id, query)  # `where is the entry point of the crate`
    entry = entry or makefile_files(conn, repo_id, query)  # `which make target runs the tests`
    entry = entry or task_runner_files(conn, repo_id, query)  # `which nox sessions run ...`
    entry = entry or sorted(language_files(conn, repo_id, query))  # `where is the CSS`
    entry = entry or extension_build_files(conn, repo_id, query)  # `where is the C extension built`
    entry = entry or man_pages(conn, repo_id, query)  # `where is the man page`: doc/hyperfine.1
    if entry:
        return entry
    found = _WHERE_IS_FILE.match(query) or _WHICH_CONFIG.match(query)
    if found is None:
        return []
    wanted = found.group(2).casefold()
    terms = tuple(tokenize(wanted))
    if not terms:
        return []
    phrase = phrase_query(terms, "path_terms")
    named = [
        path
        for path in paths_matching(conn, repo_id, phrase, MAX_PATH_LOOKUP)
        if wanted in _names_of(path.rpartition("/")[2])
    ]
    if found.group(1).strip():
        words = found.group(1).casefold().split()
        # a name written as words (`the pre-commit hook`: .pre-commit-hooks.yaml)
        qualified = _in_folders(named, words) or _named_in_words(conn, repo_id, [*words, wanted])
        qualified = qualified or _tool_config_files(conn, repo_id, words[-1], wanted)
        qualified = qualified or _script_files(conn, repo_id, words[-1], wanted)
        qualified = qualified or _doc_called(conn, repo_id, words[-1], wanted)
        # `the root pom`: the build file nearest the root, when no file or folder is called so
        rooted = set(words) <= _ROOT_WORDS and all(
            is_build_file_name(p.rpartition("/")[2]) for p in named
        )
        named = qualified or (named if rooted else [])
    if not named and wanted in _LICENSE_WORDS:
        named = _license_files(conn, repo_id)
    if not named:
        return []
    depth = min(path.count("/") for path in named)
    return [path for path in named if path.count("/") == depth]


# words saying the build file asked for is the root's (`where is the root pom`, `the top-level
# pom.xml`, Maven's `parent pom`): the nearest the root, where no folder or file is called so.
# A source file is not (`the root reducer` is rootReducer.js, not the shallowest reducer.js).
# QA on OpenFeign/feign, a pom.xml in each module: `where is the root pom` named no file
_ROOT_WORDS = frozenset({"root", "top-level", "toplevel", "parent", "root-level"})


# the names a project's license file goes by, less their extension: GNU's COPYING among them.
# QA on google/guice: `where is the license` named no file (its license is COPYING) and
# answered eight source files' license headers
_LICENSE_WORDS = frozenset({"license", "licence"})
_LICENSE_NAMES = ("license", "licence", "copying", "unlicense")


def _license_files(conn: sqlite3.Connection, repo_id: str) -> list[str]:
    """The files named as a license is (LICENSE, LICENSE.txt, COPYING, UNLICENSE)."""
    return [
        path
        for name in _LICENSE_NAMES
        for path in paths_matching(conn, repo_id, phrase_query((name,), "path_terms"), 50)
        if path.rpartition("/")[2].partition(".")[0].casefold() == name
    ]


# a page's noun after its name: `the CONTRIBUTING guide` is contributing.rst, a doc
_DOC_NOUNS = frozenset({"guide", "doc", "docs", "document", "documentation", "page"})


def _doc_called(conn: sqlite3.Connection, repo_id: str, name: str, noun: str) -> list[str]:
    """The docs called `name` when a question names a page by its name and a noun for a
    page (`where is the CONTRIBUTING guide`): QA on nedbat/coveragepy ranked
    doc/contributing.rst fourth below three source files, `guide` read as the file's name.
    Docs only: `the user guide` names no user.py."""
    if noun not in _DOC_NOUNS:
        return []
    phrase = phrase_query(tuple(tokenize(name)), "path_terms")
    return [
        path
        for path in paths_matching(conn, repo_id, phrase, MAX_PATH_LOOKUP)
        if name in _names_of(path.rpartition("/")[2]) and role_of(path) == Role.DOC
    ]


def _in_folders(paths: list[str], words: list[str]) -> list[str]:
    """Of `paths`, those whose folders name the most of `words`: a folder called so first
    (`json/spec.md` for `the JSON syntax spec`), else one holding a word of at least
    _FOLDER_WORD letters (`hclsyntax/spec.md` for `the native syntax spec`); none when no
    folder names any. QA on hashicorp/hcl: `where is the JSON syntax spec` left json/spec.md,
    a doc, out of the first ten, below code holding `json` and `spec`."""

    def named(path: str) -> tuple[int, int]:
        folders = path.casefold().split("/")[:-1]
        whole = sum(word in folders for word in words)
        held = sum(len(w) >= _FOLDER_WORD and any(w in f for f in folders) for w in words)
        return whole, held

    scores = {path: named(path) for path in paths}
    best = max(scores.values(), default=(0, 0))
    return [path for path, score in scores.items() if score == best] if any(best) else []


def _named_in_words(conn: sqlite3.Connection, repo_id: str, words: list[str]) -> list[str]:
    """The files whose name (less its extension) is `words` run together, the last word in
    either number: `the pre-commit hook` names .pre-commit-hooks.yaml. QA on PyCQA/flake8:
    `where is the pre-commit hook` ranked processor.py's `update_checker_state_for` first
    and the hooks file nowhere, the question's last word alone read as the file's name."""
    spelled = tuple(tokenize(" ".join(words)))
    if len(spelled) < 2:
        return []
    last = spelled[-1]
    for form in dict.fromkeys((last, last + "s", last.removesuffix("s"))):
        wanted = (*spelled[:-1], form)
        paths = paths_matching(conn, repo_id, phrase_query(wanted, "path_terms"), MAX_PATH_LOOKUP)
        found = [p for p in paths if tuple(tokenize(_names_of(p.rpartition("/")[2])[1])) == wanted]
        if found:
            return found
    return []


def _tool_config_files(conn: sqlite3.Connection, repo_id: str, tool: str, wanted: str) -> list[str]:
    """The files a tool reads its settings from by its name, `<tool>.config.<ext>`
    (jest.config.js, vitest.config.mts), for a question asking for the tool's config: their
    name up to the first dot is the tool's alone, so `the jest config` named no file."""
    if wanted not in ("config", "configuration"):
        return []
    for name in (tool, *_CONFIG_READ_FROM.get(tool, ())):
        phrase = phrase_query((*tokenize(name), "config"), "path_terms")
        prefix = f"{name}.config."
        found = [
            path
            for path in paths_matching(conn, repo_id, phrase, MAX_PATH_LOOKUP)
            if path.rpartition("/")[2].casefold().startswith(prefix)
        ]
        if found:
            return found
    return []


# another tool's config file a tool reads where it has none of its own: Vitest reads
# vite.config.* (QA on vuejs/pinia, whose vitest settings are vite.config.ts's `test:` block:
# `where is the vitest config` named no file and ranked package.json first)
_CONFIG_READ_FROM = {"vitest": ("vite",)}


_PROGRAM_ROLES = frozenset({Role.SOURCE, Role.CONFIG})  # Cargo's build.rs is a build file


def _script_files(conn: sqlite3.Connection, repo_id: str, name: str, wanted: str) -> list[str]:
    """The programs called `name` for a question asking for the `name` script (`the build
    script`: Cargo's build.rs, a build.sh; `the install script`: install.sh), not docs or
    config: the question's last word is what the file is, not its name. QA on
    ajeetdsouza/zoxide: `where is the build script` named no file and ranked shell.nix and
    install.sh above build.rs."""
    if wanted not in ("script", "scripts"):
        return []
    phrase = phrase_query(tuple(tokenize(name)), "path_terms")
    return [
        path
        for path in paths_matching(conn, repo_id, phrase, MAX_PATH_LOOKUP)
        if _names_of(path.rpartition("/")[2])[1] == name and role_of(path) in _PROGRAM_ROLES
    ]


def _names_of(file_name: str) -> tuple[str, str]:
    """A file's name and its name up to its first dot (a leading dot left out), casefolded."""
    folded = file_name.casefold()
    return folded, folded.lstrip(".").split(".", 1)[0]


# a package the query names as one: `the cookie package`, `the @tinyhttp/app package's`
_PACKAGE_NAMED = re.compile(
    r"(?<![\w@./-])([\w@./-]+)\s+(?:package|pkg|crate|module|workspace)(?:'s)?(?![\w.])",
    re.IGNORECASE,
)


def package_scoped(named: list[str], query: str) -> list[str]:
    """Of the files a bare file name names (`package.json`, `tsconfig.json`: every package
    of a monorepo holds one), the one in the folder of the package the query names as a
    package (`where is the package.json of the cookie package`: packages/cookie/), when one
    is; else none, as for any file name several files share."""
    packages = {
        found.group(1).rstrip("/").rpartition("/")[2].casefold()
        for found in _PACKAGE_NAMED.finditer(query)
    }
    scoped = [p for p in named if p.rpartition("/")[0].rpartition("/")[2].casefold() in packages]
    if len(scoped) > 1:  # the package's own, not examples/cookie/package.json beside it
        scoped = [p for p in scoped if role_of(p) not in _ASIDE_ROLES]
    return scoped if len(scoped) == 1 else []


_ASIDE_ROLES = frozenset({Role.TEST, Role.EXAMPLE, Role.BENCH})


# a module run as a program: `python -m rich`, `python3 -X dev -m pkg.tool`
_RUN_MODULE = re.compile(
    r"(?<![\w.-])python(?:3(?:\.\d+)?)?(?:\s+-[A-Za-z]+(?:\s+\w+)?)*?\s+-m\s+([A-Za-z_][\w.]*)"
)


def run_module_files(conn: sqlite3.Connection, repo_id: str, query: str) -> list[str]:
    """The file `python -m X` runs: a package's __main__.py, else the module's file. QA on
    Textualize/rich: `what runs when I do python -m rich` named no file, and rich/__main__.py
    was not in the first two."""
    found = _RUN_MODULE.search(query)
    if found is None:
        return []
    wanted = found.group(1).strip(".").replace(".", "/").casefold()
    phrase = phrase_query(tuple(tokenize(wanted)), "path_terms")
    paths = paths_matching(conn, repo_id, phrase, MAX_PATH_LOOKUP)
    for module in (wanted + "/__main__", wanted):
        named = [
            path
            for path in paths
            if path.endswith(".py")
            and (_stem(path) == module or _stem(path).endswith("/" + module))
        ]
        if named:
            return named
    return []


def _stem(path: str) -> str:
    """A Python file's path less `.py`, `/__init__` too, casefolded (`rich/__main__.py` ->
    `rich/__main__`, `rich/__init__.py` -> `rich`)."""
    stem = path.casefold().removesuffix(".py")
    return stem.removesuffix("/__init__")


# a path from a filesystem's root, a home folder or a drive (`/home/dev/proj/src/app.py`,
# `~/proj/app.py`, `C:\proj\app.py`), as tracebacks and editors write a checkout's files
_ABSOLUTE = re.compile(r"(?:/|~/|[A-Za-z]:/)")


def checkout_files(conn: sqlite3.Connection, repo_id: str, written: str) -> list[str]:
    """The files an absolute path names: the indexed paths it ends with (at a `/`), the
    longest of them. Where the checkout lies on the writer's disk is unknown, so its folders
    are whatever comes before; one phrase read of the file's name."""
    name = written.rpartition("/")[2]
    terms = tuple(tokenize(name))
    if not terms:
        return []
    folded = "/" + written.casefold()
    ending = [
        path
        for path in paths_matching(
            conn, repo_id, phrase_query(terms, "path_terms"), MAX_PATH_LOOKUP
        )
        if folded.endswith("/" + path.casefold())
    ]
    longest = max(map(len, ending), default=0)
    return [path for path in ending if len(path) == longest]


# a place in the file a path names: a line (`:12`), a line and column (`:12:5`), a range
# (`:12-30`), a code host's anchor (`#L12`, `#L12-L30`, `#L12-30`)
PLACE_SUFFIX = re.compile(r"(?::(\d+)(?:-(\d+)|:\d+)?|#L(\d+)(?:-L?(\d+))?)$")


# a place written in words: `filters.py line 995`, `line 995 of filters.py`, `lines 3-9 in
# x.go` (query_api/retrieval/named_lines.py reads its lines with the same patterns)
PLACE_FILE = r"((?:[\w.~:-]*[\\/])*[\w-]+(?:\.[\w-]+)*\.[A-Za-z]\w{0,5})"
PLACE_LINES = r"lines?\s+(\d+)(?:\s*-\s*(\d+))?"
WORDED_PLACES = (
    re.compile(rf"(?<![\w/.]){PLACE_FILE},?\s+{PLACE_LINES}\b", re.IGNORECASE),
    re.compile(rf"\b{PLACE_LINES}\s+(?:of|in)\s+{PLACE_FILE}(?![\w/])", re.IGNORECASE),
)
# what every place in words writes: a text without it writes none, and is not read for one
# (the first pattern tries a file from every place of a long run of `-` or word characters,
# each read on to the run's end: quadratic in a caller's text)
MENTIONS_LINES = re.compile(r"\blines?\s+\d", re.IGNORECASE)


def worded_place_path(query: str) -> str:
    """The file of a query that is only a place written in words (`object.ts line 300`,
    `lines 3-9 of app.py`), as a path; else "". It names its file as `object.ts:300` does,
    though other files share the name: QA on jquense/yup, `object.ts line 300` named neither
    src/object.ts nor test/object.ts (a bare name in a sentence names one file only)."""
    text = query.strip().rstrip("?.!")
    for at, pattern in enumerate(WORDED_PLACES):
        found = pattern.fullmatch(text)
        if found is not None:
            return found.group(1 if at == 0 else 3).replace("\\", "/").removeprefix("./")
    return ""


def without_place(path: str) -> str:
    """`path` without the place written after it (`src/app.py:12` -> src/app.py), which
    names lines of that file, not another file."""
    found = PLACE_SUFFIX.search(path)
    return path[: found.start()] if found is not None and found.start() > 0 else path


def whole_path(query: str) -> str:
    """The query when it is one word with a `/` or a `.`, as a path; else ""."""
    whole = query.strip().replace("\\", "/").removeprefix("./").strip("/")
    if not whole or any(c.isspace() for c in whole):
        return ""
    return whole if "/" in whole or "." in whole else ""


OPENING_WORDS = 12  # a path a request opens with points to its file; one cited later is context
MAX_WRITTEN_PATHS = 4  # paths a sentence names; more is a list of files, not a pointer
_WRITTEN_PATH = re.compile(
    r"(?<![\w/.@:-])((?:[\w.-]+/)*[\w-]+(?:\.[\w-]+)*\.([A-Za-z]\w{0,5}))(?![\w/@-])"
)


def opening_paths(query: str) -> list[str]:
    """The paths to files among a request's first OPENING_WORDS words after its scope (a word
    with a language's extension: `utils.py`, `lib/request.js`, or a build file's name:
    `go.mod`, `tox.ini`; not `e.g.` or `v1.2.3`). Gin's
    `... consistent with the pattern already used in logger.go` cites a file, clap's `The
    zsh.rs uses the same approach` another: the change went elsewhere. A scope that is a
    file's path (`tests/testenv/mod.rs: ...`, `fix(walk.rs): ...`) is one of them: QA on
    sharkdp/fd, the scope was taken off first and ranked nothing (query_scope.in_scope reads
    folders and stems, not `mod.rs`)."""
    rest = after_scope(query)
    scope = query[: len(query) - len(rest)] if query.endswith(rest) else ""
    words = rest.replace("\\", "/").split()[:OPENING_WORDS]
    opening = " ".join([*re.sub(r"[():,]", " ", scope).split(), *words])
    out: list[str] = []
    for found in _WRITTEN_PATH.finditer(opening):
        path, extension = found.group(1).removeprefix("./"), found.group(2).lower()
        known = extension in LANGUAGE_BY_EXTENSION or is_build_file_name(path.rpartition("/")[2])
        if known and path not in out:
            out.append(path)
        if len(out) >= MAX_WRITTEN_PATHS:
            break
    return out


def stem_named_files(conn: sqlite3.Connection, repo_id: str, query: str) -> list[str]:
    """Files the query names by their name alone: the whole query is one compound identifier
    (`WithParameterSupplier`, `find_route`) that is a file's name without its extension. An
    agent looking a file up by its class or module name means that file, whatever its role
    (a test's helper class); a test named for the thing (`find-route.test.js`) is not it, a
    one-word name (`router`) is English as often unless written as code (in backticks, or
    with a leading underscore: `_identifier` -> _identifier.py), and a compound name inside
    a sentence is a change request's word (search.files_written_by_name)."""
    written = query.strip()
    wanted = written.strip("`")
    if not wanted or any(c.isspace() for c in wanted) or "/" in wanted or "." in wanted:
        return []
    terms = tokenize(wanted)
    # one word is a name when it is written as code: quoted, or private (`_identifier`)
    if len(terms) < 2 and not (wanted != written or wanted.startswith("_")):
        return []
    joined = "".join(terms)
    return [
        path
        for path in files_with_path_words(conn, repo_id, wanted, MAX_PATH_LOOKUP)
        if "".join(tokenize(path.rpartition("/")[2].rpartition(".")[0])) == joined
    ]


def module_named_files(conn: sqlite3.Connection, repo_id: str, query: str) -> list[str]:
    """Python and Rust files a qualified name the query writes names as a module, anywhere
    in the query: `starlette.exceptions` -> starlette/exceptions.py or
    src/starlette/exceptions/__init__.py, `crate::config` -> src/config.rs. The name's parts
    are the path's trailing folders and the file's stem (or its folder's, for __init__.py or
    mod.rs), compared case-insensitively; a declaration named so (`JsonParser.getNumberType`)
    is search.declared_symbols' to find."""
    found: set[str] = set()
    for parts in qualified_names(query):
        if parts[0] in RELATIVE_ROOTS and f"{parts[0]}::" in query:
            parts = parts[1:]  # `crate::config` is a module; `self.config` is an attribute
        elif len(parts) < 2 or parts[-1].casefold() in FILE_EXTENSIONS:
            continue
        wanted = "/".join(parts).casefold()
        phrase = phrase_query(tuple(tokenize(wanted)), "path_terms")
        found.update(
            path
            for path in paths_matching(conn, repo_id, phrase, MAX_PATH_LOOKUP)
            if path.endswith(MODULE_SUFFIXES)
            and (_module_of(path) == wanted or _module_of(path).endswith("/" + wanted))
        )
    return sorted(found)


def modules_named(conn: sqlite3.Connection, repo_id: str, name: str) -> list[str]:
    """The Python and Rust files a name written alone names as a module: qualified
    (`jinja2.sandbox`, module_named_files), or bare (`nativetypes`): a file of that stem, or
    the package file of a folder of that name; bare, a TypeScript or JavaScript file too
    (`tracing`: src/tracing.ts; an index file stands for its folder). QA on unjs/unstorage:
    `who imports tracing` placed no importer of src/tracing.ts."""
    if "." in name or "::" in name:
        return module_named_files(conn, repo_id, name)
    wanted = name.casefold()
    return [
        path
        for path in files_with_path_words(conn, repo_id, name, MAX_PATH_LOOKUP)
        if (path.endswith(MODULE_SUFFIXES) and _module_of(path).rpartition("/")[2] == wanted)
        or (path.endswith(JS_MODULE_SUFFIXES) and _js_module_of(path) == wanted)
    ]


# the TypeScript and JavaScript files a bare name names as a module (modules_named)
JS_MODULE_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


def _js_module_of(path: str) -> str:
    """The name a TS/JS file is imported by, casefolded: its stem, its folder's for an
    index file (`src/drivers/utils/index.ts` -> utils)."""
    folder, _, name = path.casefold().rpartition("/")
    stem = name[: -len(".d.ts")] if name.endswith(".d.ts") else name.rpartition(".")[0]
    return folder.rpartition("/")[2] if stem == "index" and folder else stem


def rust_module_files(
    conn: sqlite3.Connection, repo_id: str, declaring: str, name: str
) -> list[str]:
    """The indexed file a Rust `mod name;` in `declaring` loads: `name.rs` or `name/mod.rs`
    in the folder its child modules live in (processors.symbols.languages.rust.module_dir:
    a crate root's or mod.rs's own, src/filter/ for src/filter.rs)."""
    is_root = declaring.rpartition("/")[2] in CRATE_ROOT_NAMES
    wanted = child_candidates(module_dir(declaring, is_root), name)
    rows = conn.execute(
        "SELECT path FROM files WHERE repo_id = ? AND path IN (?, ?) ORDER BY path",
        (repo_id, *wanted),
    )
    return [str(r[0]) for r in rows]


def _module_of(path: str) -> str:
    """The module a file is, as a casefolded path without its extension: a package's own
    file stands for its folder."""
    folder, _, name = path.casefold().rpartition("/")
    if name in PACKAGE_FILES:
        return folder
    stem = name.rpartition(".")[0] or name
    return f"{folder}/{stem}" if folder else stem


# a word in capitals, four letters or more: `LICENSE`, `README`, `CHANGELOG`, `NOTICE`
_CAPITALS = re.compile(r"(?<![\w./-])([A-Z][A-Z0-9_]{3,})(?![\w/-])")
# a code comment's markers, which a request names in a source file (`remove TODO in parser`)
_MARKERS = frozenset({"TODO", "FIXME", "HACK", "NOTE", "WARNING", "XXX"})
MAX_CAPITAL_NAMED = 2  # files a capitals word may name: more is a name files share


def capital_named_files(conn: sqlite3.Connection, repo_id: str, query: str) -> list[str]:
    """The files a word of the query names as the repository writes their names, in
    capitals (`Update LICENSE year range to 2018-2020` -> LICENSE, `README` -> README.md):
    such a name is no English word, and the file is what the request is about. An acronym
    (`CORS`) names no file spelled in lower case (src/filters/cors.rs)."""
    out: list[str] = []
    for word in sorted(set(_CAPITALS.findall(query)) - _MARKERS):
        named = [
            path
            for path in files_with_path_words(conn, repo_id, word, MAX_PATH_LOOKUP)
            if word in (path.rpartition("/")[2], path.rpartition("/")[2].partition(".")[0])
        ]
        # a name many files share says none of them: poetry's test fixtures hold a METADATA
        # file for each distribution, and `importlib.metadata ... MetadataNotFound` named
        # them all above the code it changed; but the repository's own, at its root, is the
        # one meant (QA on rs/zerolog: `README` ranked three tools' README.md above the root's)
        if len(named) > MAX_CAPITAL_NAMED:
            named = [path for path in named if "/" not in path]
        if len(named) <= MAX_CAPITAL_NAMED:
            out.extend(path for path in named if path not in out)
    return out
