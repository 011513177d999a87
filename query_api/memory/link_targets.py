"""What a memory link names: a symbol key in either spelling, and targets that name nothing.

Symbol keys (`repo/<id>/symbol/<name>`) carry the name the views store, the file's path as a
dotted prefix (`src.flask.testing.FlaskClient` for src/flask/testing.py), which is unique and
what scan and recall list as keys (their `fullyQualifiedName` is the import name). outline,
related and search show the name as code imports it (`flask.testing.FlaskClient`,
query_api.symbols.import_names), so an agent copying that name into a link would write a key
nothing is stored under: the link would never report drift.
Such a key is rewritten to the stored one when exactly the declarations of one name match;
so is a key written without its package (`Retrofit.Builder.baseUrl(HttpUrl)` for
retrofit2.Retrofit.Builder.baseUrl(HttpUrl)) that one stored name ends with.
A name written with a Rust (or C++) path separator (`Parser::parse_recipe`) is the stored
dotted name (`Parser.parse_recipe`) when that one is stored and the name as written is not,
and a Rust path with its modules (`crate::filter::TimeFilter`) the declaration it ends with.

A Go declaration is stored as its package clause and name, so one key may name declarations
in several files (`main.main` in each command's folder): it reads back as the first file's by
path (a generated one after the others: axios' dist/axios.js declares lib's names again), a
link to it is stale only when that one changes, and search shows the note on every
file declaring it. The answer names the files, so a note meant for one is linked to that file
instead of landing silently on all of them.

The reference accepts a link to a target that does not exist (spec: "targets need not
exist"); the answer says which targets are dangling (the reference's word for a link target
that names nothing, as neighbors reports it), so a typo does not pass unnoticed.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from query_api.access.read_scope import may_read_key
from query_api.memory.views import MemoryReader
from query_api.symbols.import_names import ImportNames
from query_api.symbols.rust_paths import declaring_files, rust_segments
from schemas.tools import EntryView
from streams.stores.views.symbols import SymbolRow, SymbolViews

SYMBOL_FAMILY = "symbol"


def _symbol_key(target: str) -> tuple[str, str] | None:
    """(repo id, name) of a symbol key, else None."""
    parts = target.split("/", 3)
    if len(parts) == 4 and parts[0] == "repo" and parts[2] == SYMBOL_FAMILY and parts[3]:
        return parts[1], parts[3]
    return None


MAX_OVERLOADS_SHOWN = 4  # keys a note lists for one overloaded target


def _unparameterised(fq_name: str) -> str:
    """`a.B.m(self,int)` -> `a.B.m`."""
    return fq_name.split("(", 1)[0]


def _ending_with(rows: list[SymbolRow], dotted: str) -> list[SymbolRow]:
    """The declarations of one name ending with `dotted` on a dot (`Invocation.of` of
    retrofit2.Invocation.of(...)'s overloads); none where several names do, which are
    no overloads of one another."""
    matched = [r for r in rows if _unparameterised(r.fq_name).endswith("." + dotted)]
    return matched if len({_unparameterised(r.fq_name) for r in matched}) == 1 else []


class LinkTargets:
    """Link targets of one write, read from the views (bounded point reads per target)."""

    def __init__(self, reader: MemoryReader, symbols: SymbolViews) -> None:
        self.reader = reader
        self.symbols = symbols

    def as_imported(self, views: list[EntryView]) -> list[EntryView]:
        """Symbol views with `fullyQualifiedName` as search, outline and related show it;
        the key stays the stored name (see module doc)."""
        names: dict[str, ImportNames] = {}
        out = []
        for view in views:
            fq, path = view.fullyQualifiedName, view.fields.get("filePath")
            if view.kind != "Symbol" or not fq or not path or view.repoId is None:
                out.append(view)
                continue
            repo_names = names.setdefault(view.repoId, ImportNames(self.symbols, view.repoId))
            shown = repo_names.shown(fq, path)
            out.append(
                view if shown == fq else view.model_copy(update={"fullyQualifiedName": shown})
            )
        return out

    def canonical(self, target: str) -> str:
        """`target` as the key its entry is stored under: a symbol key spelled with the
        import name becomes the stored one when one stored name matches it (see module doc);
        anything else, a name that matches none or several, or one in a repository the
        caller may not read, is kept as written."""
        parsed = _symbol_key(target)
        if parsed is None or not may_read_key(target):
            return target  # another repository's names are not the caller's to learn
        repo_id, name = parsed
        if self.reader.scans.symbol(repo_id, name) is not None:
            return target
        dotted = name.replace("::", ".")
        if dotted != name and self.reader.scans.symbol(repo_id, dotted) is not None:
            return f"repo/{repo_id}/{SYMBOL_FAMILY}/{dotted}"
        tail = self._rust_tail(repo_id, name)
        if tail is not None:
            return f"repo/{repo_id}/{SYMBOL_FAMILY}/{tail}"
        simple = name.split("(", 1)[0].rpartition(".")[2]
        names = ImportNames(self.symbols, repo_id)
        rows = self.symbols.symbols_named(repo_id, [simple])
        stored = {row.fq_name for row in rows if names.shown(row.fq_name, row.path) == name}
        if not stored:
            # written without its package (`Retrofit.Builder.baseUrl(HttpUrl)`, as code and
            # Javadoc write it): the one stored name ending with it on a dot, if one does
            stored = {row.fq_name for row in rows if row.fq_name.endswith("." + name)}
        return f"repo/{repo_id}/{SYMBOL_FAMILY}/{stored.pop()}" if len(stored) == 1 else target

    def _rust_tail(self, repo_id: str, name: str) -> str | None:
        """The stored name a Rust path with its modules names (`crate::filter::TimeFilter`,
        `filter::TimeFilter`, as code writes it: sharkdp/fd's was a dangling link), by
        query_api.symbols.rust_paths.declaring_files: a Rust declaration is stored without
        its module path, as `TimeFilter`."""
        segments = rust_segments(name)
        if segments is None:
            return None
        found = declaring_files(
            segments,
            lambda tail: sorted(
                {
                    row.path
                    for row in self.symbols.symbols_named(repo_id, [tail.rpartition(".")[2]])
                    if row.fq_name == tail and row.path.endswith(".rs")
                }
            ),
        )
        return found[0] if found is not None else None

    def resolve(
        self, links: Mapping[str, list[str]] | None
    ) -> tuple[dict[str, list[str]], dict[str, str]]:
        """`links` with every target canonical, and {written: stored} for those rewritten."""
        out: dict[str, list[str]] = {}
        rewritten: dict[str, str] = {}
        for relation, targets in (links or {}).items():
            resolved = []
            for target in targets:
                key = self.canonical(target)
                if key != target:
                    rewritten[target] = key
                resolved.append(key)
            out[relation] = list(dict.fromkeys(resolved))
        return out, rewritten

    def overloads(self, dangling: list[str]) -> dict[str, list[str]]:
        """The dangling symbol keys written without parameters that name an overloaded
        declaration (a Python `@overload`, a Java or C# method of several signatures, stored
        once per signature as `name(params)`), each with those declarations' stored keys.
        Which one the note means is the caller's to say: none is picked for it."""
        out: dict[str, list[str]] = {}
        for target in dangling:
            parsed = _symbol_key(target)
            if parsed is None or "(" in parsed[1] or not may_read_key(target):
                continue
            repo_id, name = parsed
            dotted = name.replace("::", ".")
            names = ImportNames(self.symbols, repo_id)
            rows = [
                row
                for row in self.symbols.symbols_named(repo_id, [dotted.rpartition(".")[2]])
                if "(" in row.fq_name
            ]
            matched = [
                row
                for row in rows
                if dotted
                in {
                    _unparameterised(row.fq_name),
                    _unparameterised(names.shown(row.fq_name, row.path)),
                }
            ]
            if not matched:  # written without its package (`Invocation.of`): one name's
                matched = _ending_with(rows, dotted)
            if matched:
                out[target] = sorted(f"repo/{repo_id}/{SYMBOL_FAMILY}/{r.fq_name}" for r in matched)
        return out

    def beside(
        self, links: Mapping[str, list[str]], dangling: list[str]
    ) -> dict[str, tuple[str, list[str]]]:
        """The targets written without parameters that name a declaration (Java's field
        `baseUrl`) beside others of that name stored with their parameters (the builder's
        methods `baseUrl(String)`, `baseUrl(URL)`), each with its kind and those keys: a link
        meant for a method lands on the field, which the key names, with nothing said."""
        now = time.time()
        existing = sorted({t for ts in links.values() for t in ts} - set(dangling))
        out: dict[str, tuple[str, list[str]]] = {}
        for target, keys in self.overloads(existing).items():
            kind = self.reader.view_of(target, now).fields.get("kind") or "declaration"
            out[target] = (str(kind), keys)
        return out

    def shared(self, links: Mapping[str, list[str]]) -> dict[str, list[str]]:
        """The symbol targets whose stored name several files declare (see module doc), each
        with those files by path, the one the key reads back as first."""
        out: dict[str, list[str]] = {}
        for target in sorted({t for ts in links.values() for t in ts}):
            parsed = _symbol_key(target)
            if parsed is None or not may_read_key(target):
                continue
            repo_id, name = parsed
            simple = _unparameterised(name).rpartition(".")[2]
            paths = sorted(
                {
                    row.path
                    for row in self.symbols.symbols_named(repo_id, [simple])
                    if row.fq_name == name
                }
            )
            if len(paths) > 1:
                # the file the key reads back as (a generated one after the others:
                # symbol_decls.first_declaration) first, then by path
                first = self.reader.view_of(target, time.time()).fields.get("filePath")
                out[target] = sorted(paths, key=lambda p: p != first)
        return out

    def dangling(self, links: Mapping[str, list[str]]) -> list[str]:
        """The targets that name nothing that exists now; a target in a repository the caller
        may not read is not reported (its existence is not the caller's to learn)."""
        now = time.time()
        targets = sorted({t for ts in links.values() for t in ts})
        out = []
        for target in targets:
            view = self.reader.view_of(target, now)
            if not view.exists and not view.withheld:
                out.append(target)
        return out


def links_note(
    rewritten: Mapping[str, str],
    dangling: list[str],
    overloads: Mapping[str, list[str]] | None = None,
    shared: Mapping[str, list[str]] | None = None,
    beside: Mapping[str, tuple[str, list[str]]] | None = None,
) -> str | None:
    """One line on what the write did with its link targets, None when nothing to say.
    `overloads`: dangling targets that name an overloaded declaration, with its keys;
    `shared`: targets whose name several files declare, with those files; `beside`: targets
    naming one declaration of a name others hold with their parameters (LinkTargets.beside)."""
    parts = []
    if rewritten:
        shown = ", ".join(f"{a} as {b}" for a, b in sorted(rewritten.items()))
        parts.append(f"linked {shown} (the key symbols are stored under)")
    overloads = overloads or {}
    for target, keys in sorted(overloads.items()):
        listed = ", ".join(keys[:MAX_OVERLOADS_SHOWN])
        more = (
            f" and {len(keys) - MAX_OVERLOADS_SHOWN} more"
            if len(keys) > MAX_OVERLOADS_SHOWN
            else ""
        )
        parts.append(
            f"{target} is declared more than once (overloads), each stored with its "
            f"parameters: link the one meant, {listed}{more}"
        )
    parts += [_shared_part(target, paths) for target, paths in sorted((shared or {}).items())]
    parts += [
        _beside_part(target, kind, keys) for target, (kind, keys) in sorted((beside or {}).items())
    ]
    dangling = [t for t in dangling if t not in overloads]
    if dangling:
        parts.append(
            f"{len(dangling)} link target(s) name nothing that exists now (danglingLinks): "
            "stored as written, they read back with exists=false; check the key for a typo"
        )
    return "; ".join(parts) or None


def _shared_part(target: str, paths: list[str]) -> str:
    """What the note says of a key that several files' declarations share."""
    listed = ", ".join(paths[:MAX_OVERLOADS_SHOWN])
    more = (
        f" and {len(paths) - MAX_OVERLOADS_SHOWN} more" if len(paths) > MAX_OVERLOADS_SHOWN else ""
    )
    repo_id = target.split("/", 2)[1]
    return (
        f"{target} is declared in {len(paths)} files ({listed}{more}): it reads back as "
        f"{paths[0]}'s, `stale` follows that one only, and search shows the note on each of "
        f"them; to mean one, link its file, repo/{repo_id}/file/<path>"
    )


def _beside_part(target: str, kind: str, keys: list[str]) -> str:
    """What the note says of a key naming one of several declarations of its name."""
    listed = ", ".join(keys[:MAX_OVERLOADS_SHOWN])
    more = f" and {len(keys) - MAX_OVERLOADS_SHOWN} more" if len(keys) > MAX_OVERLOADS_SHOWN else ""
    others = "1 other declaration" if len(keys) == 1 else f"{len(keys)} other declarations"
    return (
        f"{target} names the {kind} {target.split('/', 3)[3]}; {others} of that name "
        f"{'is' if len(keys) == 1 else 'are'} stored with {'its' if len(keys) == 1 else 'their'} "
        f"parameters: {listed}{more}: link one of them to mean it"
    )
