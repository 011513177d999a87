"""References of one file: each reference site (reference_sites.py: where a name stands and
what qualifies it) resolved through the file's imports and attributed to the declaration
that owns it. References are deduplicated and attributed to their owners by bisecting a
segment table, not one by one (the stage must cost at most 2x a bare parse).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from itertools import islice
from operator import le

from processors.symbols.declaration import MAX_NAME_CHARS, Declaration, ScopedAlias
from processors.symbols.reference_sites import MACRO_BANG, PACKAGE_PATH, UNRESOLVED, Sites
from schemas.symbols import Reference

MAX_REFERENCES = 5000  # per file; a generated file cannot flood the reverse index
# the key `bound` holds a re-export under (`export { default as Options } from "./options"`):
# no local name, so nothing in the file resolves through it (languages/js_ts_imports.py)
REEXPORT_KEY = "export "
# the key `bound` holds a class an import reaches its name through under (Java's `import
# a.Outer.Inner`: LanguageRules.import_owners): no local name either, but a use of the file's
OWNER_KEY = "owner "


def references_of(
    sites: Sites,
    symbols: list[Declaration],
    aliases: dict[str, str],
    namespaces: set[str],
    bound: dict[str, str],
    through_imports: bool,
    paths: bool = False,
    scoped: Sequence[ScopedAlias] = (),
) -> tuple[list[Reference], int]:
    """The file's references and how many were left out past MAX_REFERENCES; each declaration
    an import binds (`bound`, or `scoped` in a function or block) and no reference resolved
    to counts as a file-level one. `through_imports`: a call through an imported declaration
    references it too; `paths`: a qualifier no import binds is a path of its own
    (reference_sites); `scoped`: the names an import binds inside a function or block, which
    qualify the references there only."""
    references: list[Reference] = []
    dropped = 0
    if sites.starts and scoped:
        references, dropped = _scoped_references(
            sites, symbols, aliases, namespaces, bound if through_imports else None, paths, scoped
        )
    elif sites.starts:
        references, dropped = _references(
            sites.starts,
            sites.names,
            sites.qualifiers,
            symbols,
            aliases,
            namespaces,
            bound if through_imports else None,
            paths,
        )
    if bound or scoped:
        imported = [
            *(q for k, q in bound.items() if not k.startswith(REEXPORT_KEY)),
            *(a.qualified for a in scoped if a.bound),
        ]
        reexported = [q for k, q in bound.items() if k.startswith(REEXPORT_KEY)]
        references, dropped = _imported_unreferenced(references, dropped, imported, reexported)
    return references, dropped


def _owners(symbols: list[Declaration]) -> tuple[list[int], list[str]]:
    """The file cut into segments by its declarations: a reference at byte b belongs to
    `owners[bisect_right(bounds, b) - 1]`, the fq name of the innermost declaration around it
    ("" at file level). A declaration ends for its references when every declaration that
    started inside it has ended too (the stack below), which keeps `bounds` sorted.
    `symbols` come by start, the outer one first (as nesting orders them)."""
    bounds, owners = [0], [""]
    stack: list[tuple[int, str]] = [(1 << 62, "")]  # (end byte, fq name); the file at the bottom
    for d in symbols:  # in source order, outer before inner (nesting sorted them)
        start = d.start
        while stack[-1][0] <= start:
            end = stack.pop()[0]
            bounds.append(max(bounds[-1], end))
            owners.append(stack[-1][1])
        stack.append((d.end, d.fq))
        bounds.append(start)
        owners.append(d.fq)
    while len(stack) > 1:
        end = stack.pop()[0]
        bounds.append(max(bounds[-1], end))
        owners.append(stack[-1][1])
    return bounds, owners


def _imported_unreferenced(
    references: list[Reference],
    dropped: int,
    bound: Iterable[str],
    reexported: Iterable[str] = (),
) -> tuple[list[Reference], int]:
    """Each imported declaration no reference resolved to, as a file-level reference: the
    import is the file's use of it (`from .blueprints import Blueprint` for an `isinstance(x,
    Blueprint)`, an `extends`, an assignment), which calls and type captures alone would
    miss. One already referenced needs no second entry, except a re-export's (`reexported`):
    its file-level reference is what marks the file as a barrel handing the name on under
    another name (query_api/symbols/js_family.py), even where a declaration of the file uses
    the name too (got's source/index.ts: `new Options()` in `defaults`, and `export { default
    as Options } from "./core/options.js"`)."""
    used = {qualified for _owner, _name, qualified in references}
    at_file_level = {qualified for owner, _name, qualified in references if not owner}
    wanted = [(q, used) for q in dict.fromkeys(bound)]
    wanted += [(q, at_file_level) for q in dict.fromkeys(reexported)]
    extra: list[Reference] = []
    for qualified, already in wanted:
        name = qualified.rpartition(".")[2]
        if qualified not in already and 0 < len(name) <= MAX_NAME_CHARS:
            extra.append(("", name, qualified))
            used.add(qualified)
            at_file_level.add(qualified)
    if not extra:
        return references, dropped
    room = max(0, MAX_REFERENCES - len(references))
    return references + extra[:room], dropped + max(0, len(extra) - room)


def _references(
    starts: list[int],
    names: list[str],
    qualifiers: list[str | None],
    symbols: list[Declaration],
    aliases: dict[str, str],
    namespaces: set[str] | frozenset[str] = frozenset(),
    bound: dict[str, str] | None = None,
    paths: bool = False,
) -> tuple[list[Reference], int]:
    """(owner, name, qualified) of each distinct reference, in the order of the source: the
    owner is the innermost enclosing declaration, the qualifier resolved through the imports
    (_Qualified). Duplicates go first (a file names the same things again and again), at C
    speed. Past MAX_REFERENCES the rest is counted, not kept (the second value)."""
    found = _in_source_order(starts, names, qualifiers, symbols)
    # reference captures are identifier tokens: never padded, empty only when tree-sitter
    # inserted a MISSING one while recovering from a syntax error
    # nothing qualified (no qualifier, no name an import binds): the distinct triples are the
    # references
    if not any(qualifiers) and (not aliases or aliases.keys().isdisjoint(_declared(names, paths))):
        out = [ref for ref in dict.fromkeys(found) if 0 < len(ref[1]) <= MAX_NAME_CHARS]
        return out[:MAX_REFERENCES], max(0, len(out) - MAX_REFERENCES)
    qualify = _Qualified(aliases, namespaces, bound, paths)
    unique: dict[Reference, None] = {}
    for owner, name, qualifier in dict.fromkeys(found):
        if 0 < len(name) <= MAX_NAME_CHARS:
            qualify.add(unique, owner, name, qualifier)
    out = list(islice(unique, MAX_REFERENCES))
    return _qualified_over_bare(out), max(0, len(unique) - MAX_REFERENCES)


def _scoped_references(
    sites: Sites,
    symbols: list[Declaration],
    aliases: dict[str, str],
    namespaces: set[str],
    bound: dict[str, str] | None,
    paths: bool,
    scoped: Sequence[ScopedAlias],
) -> tuple[list[Reference], int]:
    """_references where some imports bind names in a function or a block only: each site is
    qualified by the file's imports and those of the scopes around it, the innermost last."""
    starts, names, qualifiers = sites.starts, sites.names, sites.qualifiers
    if not all(map(le, starts, islice(starts, 1, None))):
        order = sorted(range(len(starts)), key=starts.__getitem__)
        starts = [starts[i] for i in order]
        names = [names[i] for i in order]
        qualifiers = [qualifiers[i] for i in order]
    scopes = _Scopes(scoped)
    in_scope = [scopes.innermost(start) for start in starts]
    qualify: dict[int, _Qualified] = {}
    unique: dict[Reference, None] = {}
    found = zip(_in_source_order(starts, names, qualifiers, symbols), in_scope, strict=True)
    for (owner, name, qualifier), scope in dict.fromkeys(found):
        if 0 < len(name) <= MAX_NAME_CHARS:
            qualified = qualify.get(scope)
            if qualified is None:
                qualified = qualify[scope] = scopes.qualified(
                    scope, aliases, namespaces, bound, paths
                )
            qualified.add(unique, owner, name, qualifier)
    out = list(islice(unique, MAX_REFERENCES))
    return _qualified_over_bare(out), max(0, len(unique) - MAX_REFERENCES)


class _Scopes:
    """The spans (functions, blocks) that imports bind names in, nested or apart as the tree
    nests them: which one is innermost around a byte, and the bindings in force there."""

    def __init__(self, scoped: Sequence[ScopedAlias]) -> None:
        spans = sorted({(a.start, a.end) for a in scoped}, key=lambda span: (span[0], -span[1]))
        self.index = {span: i for i, span in enumerate(spans)}
        self.bindings: list[list[ScopedAlias]] = [[] for _ in spans]
        for alias in scoped:  # in source order: a later binding of a name wins
            self.bindings[self.index[(alias.start, alias.end)]].append(alias)
        # the segment table of _owners over the spans: bounds[k] starts a segment whose
        # innermost span is inner[k] (-1: none); parent[i] is the span around span i
        self.parent: list[int] = []
        self.bounds, self.inner = [0], [-1]
        stack: list[tuple[int, int]] = [(1 << 62, -1)]
        for i, (start, end) in enumerate(spans):
            while stack[-1][0] <= start:
                self._close(stack)
            self.parent.append(stack[-1][1])
            stack.append((end, i))
            self.bounds.append(start)
            self.inner.append(i)
        while len(stack) > 1:
            self._close(stack)

    def _close(self, stack: list[tuple[int, int]]) -> None:
        end = stack.pop()[0]
        self.bounds.append(max(self.bounds[-1], end))
        self.inner.append(stack[-1][1])

    def innermost(self, at: int) -> int:
        return self.inner[bisect_right(self.bounds, at) - 1]

    def qualified(
        self,
        scope: int,
        aliases: dict[str, str],
        namespaces: set[str],
        bound: dict[str, str] | None,
        paths: bool,
    ) -> _Qualified:
        """The qualifier of references in `scope`: the file's imports, then each enclosing
        scope's bindings from the outermost in, each shadowing a name bound before it."""
        chain: list[int] = []
        while scope >= 0:
            chain.append(scope)
            scope = self.parent[scope]
        if not chain:
            return _Qualified(aliases, namespaces, bound, paths)
        aliases, namespaces = dict(aliases), set(namespaces)
        through = dict(bound) if bound is not None else {}
        for span in reversed(chain):
            for alias in self.bindings[span]:
                _bind(alias, aliases, namespaces, through)
        return _Qualified(aliases, namespaces, through if bound is not None else None, paths)


def _bind(
    alias: ScopedAlias, aliases: dict[str, str], namespaces: set[str], through: dict[str, str]
) -> None:
    """One scope's binding of a name over those in force around it: an import's qualifies
    its references (a namespace's as a module, a declaration's through it too); a local
    that is no import (`shadows`) leaves the name unqualified, as any name no import binds."""
    local = alias.local
    through.pop(local, None)
    if alias.shadows:
        aliases.pop(local, None)
        namespaces.discard(local)
        return
    aliases[local] = alias.qualified
    if alias.namespace:
        namespaces.add(local)
        return
    namespaces.discard(local)
    if alias.bound:
        through[local] = alias.qualified


def _in_source_order(
    starts: list[int], names: list[str], qualifiers: list[str | None], symbols: list[Declaration]
) -> Iterable[tuple[str, str, str | None]]:
    """(owner, name, qualifier) of each site, by start."""
    if symbols:
        bounds, owners = _owners(symbols)
        owner_of: list[str] = [owners[bisect_right(bounds, start) - 1] for start in starts]
    else:
        owner_of = [""] * len(starts)
    # matches nearly always come in source order; sort only when they do not
    if all(map(le, starts, islice(starts, 1, None))):
        return zip(owner_of, names, qualifiers, strict=True)
    order = sorted(range(len(starts)), key=starts.__getitem__)
    return ((owner_of[i], names[i], qualifiers[i]) for i in order)


def _declared(names: list[str], paths: bool) -> list[str]:
    """The names as a `use` binds them: a Rust macro's invocation without its `!`."""
    if not paths:
        return names
    return [name.removesuffix(MACRO_BANG) for name in names]


def _qualified_over_bare(out: list[Reference]) -> list[Reference]:
    """An import-qualified reference makes the unqualified duplicate of the same call
    redundant."""
    if len({(s, n) for s, n, _q in out}) == len(out):
        return out  # no name referenced both through an import and not, in one owner
    qualified_pairs = {(s, n) for s, n, q in out if q is not None}
    return [(s, n, q) for s, n, q in out if q is not None or (s, n) not in qualified_pairs]


class _Qualified:
    """A reference's qualified name through the file's imports. A TS/JS name bound to a
    whole module (`namespaces`) qualifies what is called through it, but called itself
    (`debug("x")` after `const debug = require("debug")`) names no declaration we can tell.
    A call through an imported declaration (`bound`: `notifyManager.batch()`) references it
    too. With `paths` (Rust) a qualifier no import binds is a path of its own
    (`crate.flags` in `crate::flags::parse()`)."""

    def __init__(
        self,
        aliases: dict[str, str],
        namespaces: set[str] | frozenset[str],
        bound: dict[str, str] | None,
        paths: bool,
    ) -> None:
        self.aliases = aliases
        self.bound = bound or {}
        self.paths = paths
        # an imported name as (declared name, qualified): `Item as It` is `Item`, `m.Item`
        self.imported = {
            short: (qualified.rpartition(".")[2], qualified)
            for short, qualified in aliases.items()
            if short not in namespaces
        }

    def module(self, qualifier: str) -> str | None:
        if qualifier.startswith(PACKAGE_PATH):  # Java's `org.junit.runner.Description`
            return qualifier[len(PACKAGE_PATH) :]
        aliases = self.aliases
        module = aliases.get(qualifier)
        if module is None and "." in qualifier:  # `z.coerce`: the chain after the import
            first, _, rest = qualifier.partition(".")
            module = f"{aliases[first]}.{rest}" if first in aliases else None
        if module is None and self.paths:
            return qualifier
        return module

    def add(
        self, unique: dict[Reference, None], owner: str, name: str, qualifier: str | None
    ) -> None:
        # a Rust macro's invocation (`log!`) is looked up and qualified by the name its
        # `use` and paths write (`log`); the reference keeps its `!` (reference_sites)
        declared = name[:-1] if self.paths and name.endswith(MACRO_BANG) else name
        if qualifier is None:
            imported = self.imported.get(declared)
            if imported is None:
                unique[(owner, name, None)] = None
            elif declared is name:
                unique[(owner, *imported)] = None
            else:
                unique[(owner, imported[0] + MACRO_BANG, imported[1])] = None
            return
        if qualifier == UNRESOLVED:  # a member of what no import names (reference_sites)
            unique[(owner, name, None)] = None
            return
        module = self.module(qualifier)
        unique[(owner, name, f"{module}.{declared}" if module is not None else None)] = None
        through = self.bound.get(qualifier)
        if through is not None:
            unique[(owner, through.rpartition(".")[2], through)] = None
