"""The files a query for a name's users or a module's importers means, when no declaration of
the name holds them: the importers of the modules or files it names, and the users of a name
the repository takes from another package.

`what calls createHttpError` on oakserver/oak placed no user: nothing declares the name
(deps.ts re-exports it from `jsr:@oak/commons/http_errors`), so the users of its declarations
were none, no module is called so, and the answer ranked files by their words, with no
`uses:` reason, where eight files call it. Its references are its uses, as for a declared
name's: those of the files taking it from the package (defining_files.entering_files) are
where it comes in, not its users.
"""

from __future__ import annotations

from collections.abc import Sequence

from query_api.retrieval.defining_files import entering_files
from query_api.retrieval.users_first import bare_callers, distinctive, last_part
from query_api.symbols.dependents import DependentsResolver, is_test_path
from query_api.symbols.js_specifiers import JsSpecifiers
from streams.stores import ViewStore
from streams.stores.views.named_files import modules_named, path_named_files


def importers_of(
    views: ViewStore, resolver: DependentsResolver, repo_id: str, name: str
) -> list[str]:
    """The files depending on the modules `name` names when no declaration is called so
    (`what imports jinja2.sandbox`, `who imports nativetypes`), as related lists a file's
    dependents, in the users' order. QA on pallets/jinja: such a query placed none, and
    sandbox.py led, then the files saying `import`."""
    modules = views.read(lambda conn: modules_named(conn, repo_id, name))
    if not modules:  # none of the repository's: a package it imports (`validator.js`)
        return package_importers(resolver, repo_id, name)
    return dependents_of_files(resolver, repo_id, modules)


# how an import entry goes on past its package: a subpath (`validator/lib/isEmail`), or the
# name it binds (`validator#*ValidatorJS` for `import * as ValidatorJS from 'validator'`)
_PAST_PACKAGE = ("/", "#")
_JS_SUFFIX = ".js"  # `validator.js`, `chart.js`: a package name as people write it


def package_importers(resolver: DependentsResolver, repo_id: str, name: str) -> list[str]:
    """The files importing the package `name` names, or a module of it, as the import entries
    write it (`validator`, `libphonenumber-js/max`), else as named without its `.js`: code
    before tests, then by path. QA on typestack/class-validator: `which decorators use
    validator.js` placed none of the 107 files importing `validator/lib/...` and read the
    name as a member `js` of `validator`."""
    for package in dict.fromkeys([name, name.removesuffix(_JS_SUFFIX)]):
        entries = resolver.symbols.imports_starting(repo_id, package)
        found = {
            path
            for path, entry in entries
            if entry == package or entry[len(package) : len(package) + 1] in _PAST_PACKAGE
        }
        if found:
            return sorted(found, key=lambda p: (is_test_path(p), p))
    return []


def importers_of_files(
    views: ViewStore, resolver: DependentsResolver, repo_id: str, written: str
) -> list[str]:
    """The files depending on the files a path names (users_first.imported_file), as
    related lists a file's dependents, in the users' order."""
    named = views.read(lambda conn: path_named_files(conn, repo_id, written))
    if not named:  # `who imports @tinyhttp/cookie`: the workspace package's entry
        named = specifier_files(views, resolver, repo_id, written)
    return dependents_of_files(resolver, repo_id, named)


_ROOT_IMPORTER = "index.ts"  # a TS/JS file at the root, importing a specifier as written


def specifier_files(
    views: ViewStore, resolver: DependentsResolver, repo_id: str, specifier: str
) -> list[str]:
    """The files a TS/JS import specifier names when imported from the repository root (a
    workspace package by its name, through its package.json; a tsconfig path alias), as
    outline's note reads one; none for a relative path or one naming no indexed file. QA
    on tinyhttp/tinyhttp: `who imports @tinyhttp/cookie` placed none of its importers, no
    file's path being `@tinyhttp/cookie`."""
    if not specifier or specifier.startswith((".", "/")):
        return []

    def text(path: str) -> str | None:
        row = views.get_content(repo_id, path)
        return row.body if row is not None else None

    js = JsSpecifiers(resolver.symbols, repo_id, text)
    module = js.repository_module(_ROOT_IMPORTER, specifier)
    return resolver.symbols.module_files(repo_id, module) if module != specifier else []


def dependents_of_files(
    resolver: DependentsResolver, repo_id: str, modules: Sequence[str]
) -> list[str]:
    if not modules:
        return []
    declared = [s for path in modules for s in resolver.symbols.symbols_of_file(repo_id, path)]
    found = resolver.dependents_found(repo_id, declared, exclude=set(modules)).files()
    return sorted(found, key=lambda p: (is_test_path(p), -len(found[p]), p))


def undeclared_users(
    views: ViewStore, resolver: DependentsResolver, repo_id: str, name: str
) -> list[str]:
    """The files referencing a name of several words that no file declares, less the files
    taking it from another package: code before tests, the most referencing declarations
    first, then by path."""
    simple = last_part(name)
    if not distinctive(simple):  # a one-word name is as often another library's
        return []
    entering = views.read(lambda conn: entering_files(conn, repo_id, simple))
    found = bare_callers(resolver.symbols.references_to(repo_id, [simple]), entering)
    return sorted(found, key=lambda p: (is_test_path(p), -len(found[p]), p))
