"""A name a query qualifies by a TypeScript or JavaScript namespace (`Memory.Create`,
`Type.Object`, `Settings.Set`) is the declaration that namespace's module hands on.

`export * as Memory from './memory.ts'` binds no declaration called `Memory`, and the
functions it reaches carry no module in their qualified names (`Create`, not
`Memory.Create`), so the users query found no declaration of `Memory.Create` and placed none
of its 37 callers; `where is Type.Object defined` lifted the one declaration named `Object`
(an enum member of another file) above the module exporting `_Object_ as Object`. The files
writing the namespace say where it comes from (their references qualify it by its module),
and the module resolver follows that module's namespace and re-exports to the declaration.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import PurePosixPath

from processors.symbols.languages.js_ts import JS_EXTENSIONS
from processors.symbols.reference_sites import UNRESOLVED
from query_api.retrieval.definition_sites import defined_name
from query_api.symbols.dependents import DependentsResolver
from streams.stores.views.symbols import SymbolRow

MODULES_TRIED = 3  # the modules a namespace is most often taken from, tried in turn
MAX_DEFINING = 5  # as defining_files: more files say nothing of which is meant


def namespace_declarations(
    resolver: DependentsResolver, repo_id: str, name: str
) -> list[SymbolRow]:
    """The top-level declarations `name` (`Namespace.member`, a namespace's namespaces
    between) means when its first part is a TS/JS namespace a module exports or a file
    imports (`export * as Memory from`, `import * as Type from`): [] for a name of one part,
    or one whose first part is no namespace (a class, a package's)."""
    head, *rest = [part for part in re.split(r"\.|::|#", name) if part]
    if not rest:
        return []
    taken = Counter(
        (row.qualified, row.path)
        for row in resolver.symbols.references_to(repo_id, [head])
        if row.name == head
        and row.qualified not in (None, UNRESOLVED)
        and row.qualified.endswith("." + head)
        and PurePosixPath(row.path).suffix.casefold() in JS_EXTENSIONS
    )
    modules = resolver.js_modules(repo_id)
    tried: set[str] = set()
    for (qualified, path), _count in taken.most_common():
        if qualified in tried:
            continue
        if len(tried) == MODULES_TRIED:
            break
        tried.add(qualified)
        declared = modules.declared_at(path, ".".join([qualified, *rest]))
        if declared:
            return _rows(resolver, repo_id, declared)
    return []


def _rows(
    resolver: DependentsResolver, repo_id: str, declared: list[tuple[str, str]]
) -> list[SymbolRow]:
    """The top-level declarations called so in those files (overloads each)."""
    names = sorted({local for _path, local in declared})
    return [
        row
        for row in resolver.symbols.symbols_named(repo_id, names)
        if (row.path, row.fq_name.split("(", 1)[0]) in declared
    ]


def namespace_defining(resolver: DependentsResolver, repo_id: str, query: str) -> set[str]:
    """The files declaring the name a definition query qualifies by a namespace (`where is
    Type.Object defined`), none when it names no namespace's member or too many files."""
    name = defined_name(query)
    if name is None:
        return set()
    paths = {row.path for row in namespace_declarations(resolver, repo_id, name)}
    return paths if len(paths) <= MAX_DEFINING else set()
