"""The files using a name a users query asks about (`what calls X`, `who uses X`, `what
imports X`), read from the cross-references, the importers and, for a member the references
miss, the files' text.

The retriever's users answer (ladder.py `_asked_first`) and its tests of a name
(`_tests_using`) both start here: related's dependents of the declarations the name is, less
those of its file as a whole, ordered code before tests.
"""

from __future__ import annotations

from processors.path_roles import Role, role_of
from processors.query_mentions import phrase_query
from processors.tokenizer import tokenize
from query_api.retrieval.builds_last import generated_of, sources_over_builds
from query_api.retrieval.file_graph import FileGraphs
from query_api.retrieval.importers import importers_of, undeclared_users
from query_api.retrieval.namespace_members import namespace_declarations
from query_api.retrieval.own_file_users import own_file_users
from query_api.retrieval.static_users import through_type
from query_api.retrieval.users_first import (
    MAX_DECLARATIONS,
    bare_callers,
    declarations_named,
    distinctive,
    is_static,
    last_part,
    loads_module,
    member_users,
    naming_qualifier,
    qualifier,
    users_order,
    value_declarations,
)
from streams.stores.views.read import paths_matching
from streams.stores.views.store import ViewStore
from streams.stores.views.symbols import SymbolRow

MAX_MEMBER_FILES = 200  # files read for a member's uses the cross-references miss (body reads)
# files declaring a name whose users are looked up file by file (_declarations_users)
MAX_DECLARING_FILES = 8
_CALLED_KINDS = ("Method", "Function")  # a name only these declare: its users call it


class NameUsers:
    """The users of a name in one views store, through the file graphs' resolver."""

    def __init__(self, views: ViewStore, graphs: FileGraphs) -> None:
        self.views = views
        self.graphs = graphs

    def users_of(
        self, repo_id: str, name: str, importers: bool = False, raisers: bool = False
    ) -> list[str]:
        """The files referencing a declaration called `name` (its last part; a qualified
        name's declarations only; with none, or for `what imports X` when a module is named
        so, the module's importers: importers.py), as related's dependents less
        those of its file as a whole (an importer of the module for its other names): code
        before tests, then the most referencing declarations first, then by path."""
        resolver = self.graphs.resolver
        symbols = resolver.symbols
        rows = symbols.symbols_named(repo_id, [last_part(name)])
        declared = value_declarations(name, declarations_named(name, rows))[:MAX_DECLARATIONS]
        declared = declared or namespace_declarations(resolver, repo_id, name)  # `Memory.Create`
        declared = self._sources_declaring(repo_id, name, declared)
        if importers and (files := importers_of(self.views, resolver, repo_id, name)):
            return files  # a module of the name: what `what imports X` means (QA on hyper)
        if not declared or all(loads_module(row) for row in declared):
            # a Rust `mod filesystem;` is the module's name, not what uses it (QA on fd); a
            # name no file declares is another package's: its references (importers.py)
            files = importers_of(self.views, resolver, repo_id, name)
            if files or declared or raisers:  # raisers: raising(), the throw statements
                return files
            return undeclared_users(self.views, resolver, repo_id, name)
        own = {row.path for row in declared}
        found: dict[str, list[str]] | dict[str, list[int]]
        found = self._declarations_users(repo_id, declared)
        calls = all(row.kind in _CALLED_KINDS for row in declared)  # used by calling it
        if not found and len(declared) == len(rows) and distinctive(last_part(name)):
            found = bare_callers(symbols.references_to(repo_id, [last_part(name)]), own, declared)
            found = through_type(self.views, repo_id, name, declared, found)  # `Type.member(`
            found = found or self._member_users(repo_id, last_part(name), own, None, calls, False)
            # a method no file calls may be passed as a value (a callback): `handler ==
            # converter._structure_call`, `(str, self._structure_call)` (QA on
            # python-attrs/cattrs: `who calls _structure_call` found none of its users)
            if calls and not found:
                found = self._member_users(repo_id, last_part(name), own, None, False, False)
        elif not found and (owner := qualifier(name)) is not None:
            # a one-word member (`ExitCode::exit`) the query names with its type: the files
            # using it through a value and naming that type (QA on sharkdp/fd)
            static = all(is_static(row.signature) for row in declared)  # `HttpResponse.json(`
            found = self._member_users(repo_id, last_part(name), own, owner, calls, static)
        counts = {path: len(uses) for path, uses in found.items()}
        if distinctive(last_part(name)):  # its own file calling it (own_file_users.py)
            refs = symbols.references_to(repo_id, [last_part(name)])
            for path, uses in own_file_users(refs, declared).items():
                counts.setdefault(path, len(uses))
        return users_order(counts, own)

    def _sources_declaring(
        self, repo_id: str, name: str, declared: list[SymbolRow]
    ) -> list[SymbolRow]:
        """`declared` less the declarations of committed builds where a source declares the
        name too (builds_last.py): a script importing axios' dist/node/axios.cjs for its
        VERSION was listed as a user of every name the bundle declares again."""
        paths = {row.path for row in declared}
        built = self.views.read(lambda conn: generated_of(conn, repo_id, paths))
        kept = sources_over_builds(paths, built, name)
        return [row for row in declared if row.path in kept]

    def _declarations_users(self, repo_id: str, declared: list[SymbolRow]) -> dict[str, list[str]]:
        """The files referencing `declared`, each with its declarations doing so: the users
        of each declaring file's declarations outside that file, when at most
        MAX_DECLARING_FILES declare them, so a file declaring the name too (a method of the
        same name) still uses another file's. QA on pallets/werkzeug: `what calls get_host`
        left out routing/map.py, which declares `MapAdapter.get_host` and calls the
        `get_host` it imports from wsgi.py, and wsgi.py, which calls sansio's."""
        resolver = self.graphs.resolver
        by_file: dict[str, list[SymbolRow]] = {}
        for row in declared:
            by_file.setdefault(row.path, []).append(row)
        if len(by_file) == 1 or len(by_file) > MAX_DECLARING_FILES:
            return resolver.dependents_found(
                repo_id, declared, exclude=set(by_file), whole_files=False
            ).files()
        found: dict[str, list[str]] = {}
        for path, rows in by_file.items():
            users = resolver.dependents_found(repo_id, rows, exclude={path}, whole_files=False)
            for user, symbols in users.files().items():
                held = found.setdefault(user, [])
                held.extend(s for s in symbols if s not in held)
        return found

    def _member_users(
        self, repo_id: str, name: str, own: set[str], owner: str | None, calls: bool, static: bool
    ) -> dict[str, list[int]]:
        """The files outside `own` whose text uses `name` as a member (`f.getFlagType(...)`,
        users_first.member_users), of at most MAX_MEMBER_FILES spelling its words (and those
        of `owner`, then writing it whole, when given; through it, for a `static` member);
        a doc's code example (pflag's README calls `flags.MarkHidden`) is no user in the code."""
        words = tuple(tokenize(owner)) if owner else tuple(tokenize(name))
        phrase = phrase_query(words, "body_terms")
        paths = self.views.read(lambda c: paths_matching(c, repo_id, phrase, MAX_MEMBER_FILES))
        bodies = {}
        for path in sorted(p for p in set(paths) - own if role_of(p) != Role.DOC):
            row = self.views.get_content(repo_id, path)
            if row is not None:
                bodies[path] = row.body
        if owner is not None:
            named = naming_qualifier(owner, bodies)
            bodies = {path: body for path, body in bodies.items() if path in named}
        return member_users(name, bodies, calls=calls, through=owner if static else None)
