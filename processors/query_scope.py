"""The scope a change request names before its colon, and the files inside it.

Commit subjects, and the change requests agents copy from them, often open with the part of
the code they touch: a conventional-commit scope (`fix(cache): ...`, `feat(runtime-core)!:`),
a Go-style package path (`plugin/cache: ...`, `net/http: ...`) or a tag (`[jsx] ...`). That
prefix is the asker's own pointer to a folder or a file, stronger than any word of the
sentence after it, and BM25 alone weighs it as one more token among many. Keyword search
lifts the files inside the scope (streams/stores/views/search.py).

A file is inside a scope when each of the scope's parts names one of its path's folders or
its file's stem: exactly (`cache` -> plugin/cache/), or as the last words of a prefixed name
(`complete` -> clap_complete/, `ssr` -> compiler-ssr/, `types` -> default_types.rs,
`custom-element` -> apiCustomElement.ts), the way workspaces name their packages after the
project and TypeScript names its modules.
"""

from __future__ import annotations

import functools
import re

from processors.path_roles import EXAMPLE_DIRS

MAX_SCOPES = 4  # `fix(a,b,c,d):` at most; more is a list, not a pointer
MAX_SCOPE_CHARS = 48
_CONVENTIONAL = re.compile(r"^[a-z]+\(([^()]{1,80})\)!?:\s", re.IGNORECASE)
_PACKAGE_PATH = re.compile(
    r"^([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.*-]+)*(?:,\s*[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.*-]+)*)*):\s"
)
_TAG = re.compile(r"^\[([^\]]{1,40})\]\s")
_LEADING_SYMBOLS = re.compile(r"^(:[a-z0-9_+-]+:\s*|[^\w\s\[(`'\"]+\s*)+")  # gitmoji
_SEPARATORS = re.compile(r"[,\s]+")
# `fix:` / `Note:` / `BREAKING:` are no scope: a Go-style prefix needs a slash or a name that
# is no English lead-in; conventional types come without parentheses there.
NOT_SCOPES = frozenset(
    {"fix", "fixes", "feat", "feature", "chore", "refactor", "perf", "docs", "doc", "test",
     "tests", "style", "build", "ci", "revert", "wip", "note", "breaking", "todo", "bug",
     "bugfix", "hotfix", "release", "deps", "dev", "misc", "minor", "all", "*"}
)  # fmt: skip


def query_scopes(query: str) -> tuple[tuple[str, ...], ...]:
    """The scopes a query opens with, each as its lower-cased path parts (`plugin/cache` ->
    ("plugin", "cache")); empty when it opens with none."""
    found = _opening_scope(query)
    if found is None:
        return ()
    scopes: list[tuple[str, ...]] = []
    for raw in _SEPARATORS.split(found.group(1).strip().lower()):
        parts = tuple(part for part in raw.strip("/").split("/") if part and part != "*")
        if not parts or len(raw) > MAX_SCOPE_CHARS or "/".join(parts) in NOT_SCOPES:
            continue
        if parts not in scopes:
            scopes.append(parts)
    return tuple(scopes[:MAX_SCOPES])


def after_scope(query: str) -> str:
    """The request after the scope it opens with (`fix(server-renderer): reject CR` ->
    `reject CR`), or the whole request when it opens with none: the scope points to a folder
    (query_scopes, in_scope), not to a file its words name."""
    found = _opening_scope(query)
    return found.string[found.end() :] if found is not None else query


_COMMIT_TYPE = re.compile(r"^([a-z]+)(?=(?:\([^()]{1,80}\))?!?:\s)", re.IGNORECASE)
# the conventional-commit types a request may open with: what kind of change, not where
# (`fix` is a verb of the request too, weighed as one: processors.tokenizer.CHANGE_VERBS)
_COMMIT_TYPES = frozenset(
    {"feat", "feature", "chore", "refactor", "perf", "style", "build", "ci", "revert", "wip",
     "release", "deps", "types", "docs", "test", "tests"}
)  # fmt: skip


def without_commit_type(query: str) -> str:
    """The request without the conventional-commit type it opens with (`feat(config): add
    Get` -> `(config): add Get`): the type says what kind of change it is, and as a word it
    matched code that names commit types (kratos' `commitTypeFeat`). What the type asks for
    (`test(router):` asks for tests) is read from the whole request (path_roles.roles_asked)."""
    text = _LEADING_SYMBOLS.sub("", query.strip())
    found = _COMMIT_TYPE.match(text)
    if found is None or found.group(1).lower() not in _COMMIT_TYPES:
        return query
    return text[found.end() :]


# an exception's type a pasted error message opens with (`ValueError: ...`, `rich.errors.
# MarkupError: ...`, `java.lang.IllegalStateException: ...`): the error, not a package. QA on
# Textualize/rich: read as a scope, `StyleSyntaxError` picked no hit lines, and rich/errors.py
# pointed at `class NotRenderableError` for the message's `not`
_EXCEPTION_TYPE = re.compile(r"(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning)")


def _opening_scope(query: str) -> re.Match[str] | None:
    """The scope prefix a query opens with (after any gitmoji), matched on the query as
    stripped of them (`match.string`)."""
    text = _LEADING_SYMBOLS.sub("", query.strip())
    package = _PACKAGE_PATH.match(text)
    if package is not None and _EXCEPTION_TYPE.fullmatch(package.group(1)):
        package = None
    return _CONVENTIONAL.match(text) or _TAG.match(text) or package


def in_scope(path: str, scopes: tuple[tuple[str, ...], ...]) -> bool:
    """Whether the file at `path` lies inside one of `scopes`."""
    if not scopes:
        return False
    names = _path_names(path)
    return any(_inside(path, names, scope) for scope in scopes)


def _inside(path: str, names: frozenset[tuple[str, ...]], scope: tuple[str, ...]) -> bool:
    """Whether a file of `path` (its `names`) lies inside one scope: each part names one of
    its folders or its stem, an npm package's name (`@xstate/solid`) its package's folder,
    as the first two parts of another scope may (`[xstate/store]`: packages/xstate-store/)."""
    if len(scope) >= 2 and scope[0].startswith("@"):
        return _in_package(path, scope[0][1:], scope[1]) and all(
            _names_part(names, part) for part in scope[2:]
        )
    if all(_names_part(names, part) for part in scope):
        return True
    joined = len(scope) >= 2 and _in_folder(path, (*_words(scope[0]), *_words(scope[1])))
    return joined and all(_names_part(names, part) for part in scope[2:])


def _in_package(path: str, owner: str, package: str) -> bool:
    """Whether one of `path`'s folders is the package an npm scope names: `@xstate/solid`'s
    is packages/xstate-solid/ (the owner's name before the package's, as @babel/core's
    babel-core/) or packages/solid/ (@angular/core's core/), never packages/xstate-store-solid/
    (@xstate/store-solid's). QA on statelyai/xstate, whose commits open `[@xstate/solid] Fix
    ...`: the owner's `xstate` named no folder's last word, so no file was inside the scope."""
    named = _words(package)
    return _in_folder(path, named, exact=True) or _in_folder(path, (*_words(owner), *named))


def _in_folder(path: str, words: tuple[str, ...], *, exact: bool = False) -> bool:
    """Whether one of `path`'s folders is named by `words`, or ends with them unless `exact`."""
    *folders, _ = path.split("/")
    if not words:
        return False
    if exact:
        return any(_words(folder) == words for folder in folders)
    return any(_words(folder)[-len(words) :] == words for folder in folders)


_NAME_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


@functools.lru_cache(maxsize=65_536)  # every candidate of every scoped query
def _path_names(path: str) -> frozenset[tuple[str, ...]]:
    """A path's folder names and its file's stem, each as its lower-cased words
    (`src/apiCustomElement.ts` -> (src,), (api, custom, element))."""
    *folders, name = path.split("/")
    return frozenset(_words(part) for part in (*folders, name.split(".", 1)[0]))


@functools.lru_cache(maxsize=65_536)
def _words(name: str) -> tuple[str, ...]:
    return tuple(word.lower() for word in _NAME_WORD.findall(name))


def _names_part(names: frozenset[tuple[str, ...]], part: str) -> bool:
    """Whether a scope part is one of `names` or its last words (`custom-element` ->
    api_custom_element, apiCustomElement)."""
    wanted = _words(part)
    return bool(wanted) and any(name[-len(wanted) :] == wanted for name in names)


# `the chat example`, `echo example client`, `Improve command example`: a request naming one
# example program by its folder's name, as code too (``hyper` example`)
_EXAMPLE_NAMED = re.compile(
    r"(?<![\w./-])([A-Za-z][\w-]*)[`'\"]?\s+(?:examples?|samples?|demos?)\b", re.I
)


def named_examples(query: str) -> frozenset[str]:
    """The words a query writes before `example` (`chat` in `fix the chat example`): each
    names the example program of that folder when one is (in_named_example). QA on
    gorilla/websocket: `Use single character receiver names in chat example` and `what does
    the hub do in the chat example` ranked the library's files above examples/chat/, whose
    files are pushed down as examples and never embedded."""
    return frozenset(found.group(1).lower() for found in _EXAMPLE_NAMED.finditer(query))


def in_named_example(path: str, names: frozenset[str]) -> str | None:
    """The path of `path` inside the example program's folder one of `names` names (the
    folder right inside an examples folder: `hub.go` of examples/chat/hub.go for `chat`,
    never a file's name but a Rust one's, _rust_example), which says its role within the
    program (its README is its docs); None when it lies in none."""
    if not names:
        return None
    parts = path.split("/")
    for at in range(len(parts) - 2):
        if parts[at].lower() in EXAMPLE_DIRS and parts[at + 1].lower() in names:
            return "/".join(parts[at + 2 :])
    if len(parts) >= 2 and parts[-2].lower() in EXAMPLE_DIRS and _rust_example(parts[-1], names):
        return parts[-1]
    return None


def _rust_example(name: str, names: frozenset[str]) -> bool:
    """Whether a file directly in an examples folder is the Rust example one of `names`
    names: its stem, or its stem's first words (`hyper-echo.rs` for `hyper`). Cargo builds
    each such `.rs` file as one example program (`--example hyper-echo`), so the file is the
    program a folder is elsewhere. QA on tokio-rs/tracing: `remove env_logger from the hyper
    example` ranked examples/examples/hyper-echo.rs in none of the first ten."""
    stem, _, extension = name.rpartition(".")
    if extension != "rs" or not stem:
        return False
    words = _words(stem)
    return any(named and words[: len(named)] == named for named in map(_words, names))
