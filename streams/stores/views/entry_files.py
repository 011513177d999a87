"""The files a question about a program's entry point or about the whole project means.

`where is the entry point of the crate` asks for the file a program or library starts from
(src/lib.rs, src/main.rs, main.go, __main__.py, a root index.ts), and `what does this crate
do` for the project's overview: its root README, then those. Keyword search read their words:
QA on console-rs/indicatif ranked src/state.rs first for its `pub(crate)` lines and put
src/lib.rs fifth, and answered the second with ten files holding `crate`, README.md in none
of its places. Those files are called by what they are, as the changelog is
(changelog_files.py): the shallowest of each kind, outside tests and examples.
"""

from __future__ import annotations

import re
import sqlite3

from processors.path_roles import Role, role_of
from streams.stores.views.manifest_names import manifest_names
from streams.stores.views.read import files_with_path_words, get_content
from streams.stores.views.script_entries import script_entries

# a binary or an executable is the program a crate or module builds (`where is the entry point
# of the binary`: QA on ajeetdsouza/zoxide matched no entry form and ranked a shell template,
# install.sh and src/import.rs first, src/main.rs nowhere in the first ten)
_BINARY = r"(?:binary|binaries|executable|bin)"
_WHOLE = (
    r"(?:crate|project|library|lib|package|repo|repository|codebase|program|app|application"
    r"|tool|cli|module|" + _BINARY + ")"
)
# a JavaScript package's module format or target (`the ESM entry point`, `the CommonJS entry
# point`): its manifest maps each to a file (package.json's `exports`, `main`, `module`,
# `browser`). QA on axios/axios: `where is the ESM entry point` matched no entry form and
# ranked bin/contributors.js (`entry.points`) first
_FORMAT = (
    r"(?:esm|es\s?modules?|cjs|commonjs|common\s+js|umd|browser|node(?:\.?js)?|module|typescript"
    r"|types|typings)"
)
ENTRY_MANIFEST = "package.json"
# the file exporting a library's public API is its entry (`which file exports the public
# API`, `where is the public API exported`): QA on axios/axios ranked karma.conf.cjs
# (`module.exports = function(config)`) first and left index.js out of the first ten
_PUBLIC_API = (
    r"(?:(?:which|what)\s+files?\s+(?:exports?|defines?|declares?)\s+(?:the\s+|its\s+)?"
    r"(?:public\s+)?api"
    r"|where\s+(?:is|are)\s+(?:the\s+|its\s+)?public\s+api"
    r"(?:\s+(?:exported|defined|declared))?)"
)
# `where is the entry point (of the crate)`, `what is the main entry point`, `where does the
# program start`
_ENTRY = re.compile(
    rf"""^\s*(?:
      (?:where|what|which)\s+(?:is|are)\s+(?:the\s+|its\s+)?(?:main\s+)?
        (?:(?P<format>{_FORMAT})\s+)?
        (?:(?:cli|command[\s-]line|console|script|commands?)\s+)?entry[\s-]?points?\b
        (?:\s+(?:of|for|to|into)\s+(?:the\s+|this\s+)?
          (?:(?P<package>[\w@.-]+)\s+(?:package|module|library|crate)|{_WHOLE}))?
      |where\s+(?:does|do)\s+(?:the\s+|this\s+)?{_WHOLE}\s+(?:start|begin)
      |{_PUBLIC_API}
      |(?:which|what)\s+file\s+(?:is|does)\s+(?:the\s+|this\s+)?{_WHOLE}\s+(?:start|begin)\w*
    )\s*\??\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
# `what does this crate do`, `what is this project`, `(give me an) overview of this project`
_OVERVIEW = re.compile(
    rf"""^\s*(?:
      what\s+(?:does|do)\s+this\s+{_WHOLE}\s+do
      |what\s+is\s+this\s+{_WHOLE}(?:\s+(?:for|about))?
      |(?:give\s+me\s+)?(?:an?\s+)?overview\s+of\s+(?:this|the)\s+{_WHOLE}
    )\s*\??\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
# `what is middy`, `what does flake8 do`: an overview when the name is the project's own
# (named_overview; QA on middyjs/middy led `what is middy` with core/index.d.ts, README fifth)
_NAMED_OVERVIEW = re.compile(
    r"^\s*what\s+(?:is|are|does|do)\s+(?P<name>[\w@./-]{2,64})(?:\s+do)?\s*\??\s*$",
    re.IGNORECASE,
)
# an entry point question about the command (`the CLI entry point`, `of the cli`)
_COMMAND = re.compile(r"\b(?:cli|command|console|script)", re.IGNORECASE)
_TITLE = re.compile(r"^\s*(?:#+|=+)?\s*(?P<title>[^\n]{1,120})")
# the title below a prologue (an SPDX comment, a logo, a sponsor's block with its own `###`):
# the first `# ` heading or `<h1>` (QA on eza-community/eza: `# eza` below both)
_H1 = re.compile(
    r"^#[ \t]+(?P<title>[^\n]{1,120})|<h1\b[^>]*>\s*(?P<h1>[^<\n]{1,120})", re.M | re.I
)
_PROLOGUE_CHARS = 4000  # of a README read for a title below its prologue
# the file names a program or library starts from, by the word its path holds
_ENTRY_NAMES = {
    "lib": ("lib.rs",),
    "main": ("main.rs", "main.go", "main.py"),
    "__main__": ("__main__.py",),
    "index": ("index.ts", "index.js", "index.mjs", "index.cjs", "index.tsx"),
}
_README = re.compile(r"^readme(?:\.\w+)?$", re.IGNORECASE)
_LOOKUP = 200  # paths a name word's phrase read may return
# entry files an overview names at most beside the README: more, one per package of a
# monorepo (packages/*/index.js), each start only its package, and the README speaks for the
# whole (QA on middyjs/middy: `what does this project do` put four packages' index.js, tied
# with it, above README.md)
MAX_OVERVIEW_ENTRIES = 3


def entry_files(conn: sqlite3.Connection, repo_id: str, query: str) -> list[str]:
    """The entry files (and for an overview question the root README first) the query
    asks for; none for another query."""
    named = named_overview(conn, repo_id, query)  # `what is middy`: its README says
    overview = named or _OVERVIEW.match(query) is not None
    entry = _ENTRY.match(query)
    if not overview and entry is None:
        return []
    entries = _entries(conn, repo_id, entry_package(query))
    if entry is not None and entry["format"] and get_content(conn, repo_id, ENTRY_MANIFEST):
        return [ENTRY_MANIFEST, *entries]  # its format's file: the manifest says which
    if not overview:
        # `where is the CLI entry point`: the manifest mapping the command to its function,
        # and that function's file (script_entries), not a library's index.ts
        scripts = script_entries(conn, repo_id) if entry and _COMMAND.search(query) else []
        return scripts or entries
    readmes = sorted(
        p
        for p in files_with_path_words(conn, repo_id, "readme", _LOOKUP)
        if "/" not in p and _README.match(p)
    )
    if readmes and (named or len(entries) > MAX_OVERVIEW_ENTRIES):
        return readmes[:1]
    return [*readmes[:1], *entries]


def named_overview(conn: sqlite3.Connection, repo_id: str, query: str) -> bool:
    """Whether the query asks what the project is by its name (`what is middy`): the name
    is the repository's id, its root manifest's package name (manifest_names: QA on
    react-hook-form, whose README opens with a logo), or the first word of its root README's
    title (`# Middy`, `Flake8` over a `====` line)."""
    found = _NAMED_OVERVIEW.match(query)
    if found is None:
        return False
    name = found["name"].casefold().strip("@./-")
    if name == repo_id.casefold().rpartition("/")[2]:
        return True
    for declared in manifest_names(conn, repo_id):  # package.json's `"name"`
        if name in (declared.casefold().strip("@./-"), declared.casefold().rpartition("/")[2]):
            return True
    for path in files_with_path_words(conn, repo_id, "readme", _LOOKUP):
        row = get_content(conn, repo_id, path) if "/" not in path and _README.match(path) else None
        if row is not None and name in title_names(row.body):
            return True
    return False


def title_names(body: str) -> set[str]:
    """The first words of a README's titles: its first line's, and its first `# ` heading's
    or `<h1>`'s, for a README opening with a comment, a logo or a sponsor's block."""
    titles = [found["title"] for found in [_TITLE.match(body)] if found is not None]
    heading = _H1.search(body, 0, _PROLOGUE_CHARS)
    if heading is not None:
        titles.append(heading["title"] or heading["h1"])
    words = (re.findall(r"[\w@.-]+", title.casefold()) for title in titles)
    return {found[0].strip("@./-") for found in words if found}


def _entries(conn: sqlite3.Connection, repo_id: str, package: str | None = None) -> list[str]:
    """The shallowest entry files outside tests, examples and docs, in the order of
    _ENTRY_NAMES; of a `package`, those below a folder called so (`the entry point of the
    core package`: packages/core/index.js; QA on middyjs/middy matched no entry form)."""
    found: list[str] = []
    for word, names in _ENTRY_NAMES.items():
        for path in files_with_path_words(conn, repo_id, word, _LOOKUP):
            if path.rpartition("/")[2] in names and role_of(path) == Role.SOURCE:
                found.append(path)
    if package is not None:  # `@scope/core` is the folder `core` (entry_package)
        found = [p for p in found if package in (f.casefold() for f in p.split("/")[:-1])]
    if not found:
        return []
    depth = min(path.count("/") for path in found)
    return [path for path in found if path.count("/") == depth]


def asks_whole_files(query: str) -> bool:
    """Whether the query asks for the entry point or the project's overview: the files it
    names are read from their head (query_api/retrieval/changelog_head.py)."""
    return _OVERVIEW.match(query) is not None or _ENTRY.match(query) is not None


def entry_package(query: str) -> str | None:
    """The folder an entry-point question names its package by (`core` for `where is the
    entry point of the @mw/core package`), else None."""
    entry = _ENTRY.match(query)
    package = entry["package"] if entry is not None else None
    return package.casefold().rpartition("/")[2] if package else None


def is_entry_file(path: str, package: str | None = None) -> bool:
    """Whether `path` is an entry file or a root README by its name; of a `package` (the
    folder entry_package reads), an entry file below a folder called so."""
    name = path.rpartition("/")[2]
    if "/" not in path and _README.match(name):
        return package is None
    if package is not None and package not in (f.casefold() for f in path.split("/")[:-1]):
        return False
    return any(name in names for names in _ENTRY_NAMES.values()) and role_of(path) == Role.SOURCE
