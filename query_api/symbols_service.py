"""The symbol tools: repocontext_outline, repocontext_related, repocontext_changed (spec §1.4).

Outline and related are bounded point reads of the views (symbols, reverse reference index);
they never touch disk. `changed` walks the indexed root (stat fast path) and asks the reverse
index who depends on what changed.

Dependents resolution, more precise than the reference's simple-name match:
- a reference the extractor qualified through an import (`pkg.mod.Name`) only matches a
  declaration whose fully-qualified name agrees with it (one ends with the other on a dot);
- an unqualified reference matches by simple name, but only declarations that are
  module-level-ish (types, interfaces, enums, functions, other), never members: an
  unqualified `.save()` call says nothing about WHICH class's `save` it calls;
- a file that declares the name itself is taken to mean its own declaration.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterable
from pathlib import Path

from processors.tokens import count_tokens
from query_api.errors import ConflictError, NotFoundError, ToolInputError
from query_api.guard import WorkspaceGuard
from schemas.events import RepoRegistration
from schemas.symbols import (
    ChangedArgs,
    ChangedResult,
    OutlineResult,
    OutlineSymbol,
    PathArgs,
    RelatedResult,
    SymbolAt,
)
from streams.ingest import IngestCoordinator
from streams.sources.changes import IndexedFile, diff_against_index
from streams.stores.views import ViewStore
from streams.stores.views_symbols import SymbolRow, SymbolViews

MAX_RESULTS = 500  # dependents/tests per answer
UNQUALIFIED_MATCH_KINDS = frozenset({"Type", "Interface", "Enum", "Function", "Other"})
TYPE_KINDS = frozenset({"Type", "Interface", "Enum"})
FILE_LEVEL = "<file>"  # the `symbol` of a reference made outside any declaration
_TEST_NAME = re.compile(
    r"(^test_.*\.py$|_test\.(py|go|rb|exs?)$|\.(test|spec)\.[cm]?[jt]sx?$"
    r"|(Tests?|Spec)\.(java|kt|cs|php|scala|swift)$|_spec\.rb$)"
)
_TEST_DIRS = frozenset({"test", "tests", "__tests__", "spec", "specs", "testing"})


def is_test_path(path: str) -> bool:
    parts = path.split("/")
    return bool(_TEST_NAME.search(parts[-1])) or any(p in _TEST_DIRS for p in parts[:-1])


def qualified_match(qualified: str, fq_name: str) -> bool:
    """`pkg.mod.Name` vs `src.pkg.mod.Name` (or `billing.Charge` vs `x.com/billing.Charge`)."""
    fq = fq_name.split("(", 1)[0]
    return qualified == fq or fq.endswith("." + qualified) or qualified.endswith("." + fq)


def _clean_path(path: str) -> str:
    path = path.strip().replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path.lstrip("/")


class SymbolService:
    def __init__(self, views: ViewStore, ingest: IngestCoordinator, guard: WorkspaceGuard) -> None:
        self.views = views
        self.symbols = SymbolViews(views)
        self.ingest = ingest
        self.guard = guard

    def _registration(self, repo_id: str) -> RepoRegistration:
        reg = self.ingest.registrations.get(repo_id)
        if reg is not None:
            return reg
        row = self.views.get_repo(repo_id)
        if row is None:
            raise NotFoundError(
                f"unknown repository {repo_id!r}; repocontext_list_repos shows registered ones"
            )
        return row.registration

    # -- outline ---------------------------------------------------------------------------

    async def outline(self, args: PathArgs) -> OutlineResult:
        self._registration(args.repoId)
        path = _clean_path(args.path)
        return await asyncio.to_thread(self._outline, args.repoId, path)

    def _outline(self, repo_id: str, path: str) -> OutlineResult:
        if self.views.get_file(repo_id, path) is None:
            return OutlineResult(repoId=repo_id, path=path, exists=False)
        content = self.views.get_content(repo_id, path)
        tokens: int | None = None
        if content is not None:
            tokens = content.token_count
            if tokens is None:  # counted on read: exact o200k_base of the stored body
                tokens = count_tokens(content.body)
        return OutlineResult(
            repoId=repo_id,
            path=path,
            exists=True,
            fullReadTokenCount=tokens,
            symbols=[
                OutlineSymbol(
                    fullyQualifiedName=s.fq_name,
                    kind=s.kind,
                    signature=s.signature,
                    startLine=s.start_line,
                    endLine=s.end_line,
                )
                for s in self.symbols.symbols_of_file(repo_id, path)
            ],
        )

    # -- related ---------------------------------------------------------------------------

    async def related(self, args: PathArgs) -> RelatedResult:
        self._registration(args.repoId)
        path = _clean_path(args.path)
        return await asyncio.to_thread(self._related, args.repoId, path)

    def _related(self, repo_id: str, path: str) -> RelatedResult:
        if self.views.get_file(repo_id, path) is None:
            return RelatedResult(repoId=repo_id, path=path, exists=False)
        declared = self.symbols.symbols_of_file(repo_id, path)
        dependents = self.dependents(repo_id, declared, exclude={path})
        return RelatedResult(
            repoId=repo_id,
            path=path,
            exists=True,
            imports=self.symbols.imports_of_file(repo_id, path),
            dependents=dependents,
            tests=self.tests(repo_id, declared, dependents, exclude={path}),
        )

    def dependents(
        self, repo_id: str, declared: list[SymbolRow], exclude: set[str]
    ) -> list[SymbolAt]:
        """Symbols in other files that reference what `declared` declares (see module doc)."""
        by_name: dict[str, list[SymbolRow]] = {}
        for s in declared:
            by_name.setdefault(s.name, []).append(s)
        if not by_name:
            return []
        refs = self.symbols.references_to(repo_id, sorted(by_name))
        # a file declaring an unqualified name itself means its own declaration
        self_declared = {
            (s.path, s.name)
            for s in self.symbols.symbols_named(repo_id, sorted(by_name))
            if s.path not in exclude
        }
        found: dict[tuple[str, str], None] = {}
        for ref in refs:
            if ref.path in exclude:
                continue
            targets = by_name.get(ref.name, [])
            if ref.qualified is not None:
                ok = any(qualified_match(ref.qualified, s.fq_name) for s in targets)
            else:
                ok = (ref.path, ref.name) not in self_declared and any(
                    s.kind in UNQUALIFIED_MATCH_KINDS for s in targets
                )
            if ok:
                found[(ref.path, ref.symbol or FILE_LEVEL)] = None
                if len(found) >= MAX_RESULTS:
                    break
        return [SymbolAt(symbol=sym, path=p) for p, sym in sorted(found)]

    def tests(
        self,
        repo_id: str,
        declared: list[SymbolRow],
        dependents: Iterable[SymbolAt],
        exclude: set[str],
    ) -> list[SymbolAt]:
        """`{Name}Test(s)` / `Test{Name}` types, plus dependents that live in test files."""
        names = sorted({s.name for s in declared if s.kind in TYPE_KINDS})
        wanted = [f"{n}{suffix}" for n in names for suffix in ("Test", "Tests")]
        wanted += [f"Test{n}" for n in names]
        found: dict[tuple[str, str], None] = {}
        for s in self.symbols.symbols_named(repo_id, wanted):
            if s.path not in exclude and s.kind in TYPE_KINDS:
                found[(s.path, s.fq_name)] = None
        for d in dependents:
            if is_test_path(d.path):
                found[(d.path, d.symbol)] = None
        return [SymbolAt(symbol=sym, path=p) for p, sym in sorted(found)][:MAX_RESULTS]

    # -- changed ---------------------------------------------------------------------------

    async def changed(self, args: ChangedArgs) -> ChangedResult:
        reg = self._registration(args.repoId)
        if reg.source != "workspace" or not reg.root:
            raise ConflictError(
                f"repository {args.repoId!r} is git-sourced; changed compares a workspace "
                "directory with its index and is not available for it yet"
            )
        target = self.guard.resolve(args.path)
        root = Path(os.path.realpath(reg.root))
        if target != root and not str(target).startswith(str(root).rstrip(os.sep) + os.sep):
            raise ToolInputError(
                f"path {args.path!r} is outside the indexed root of {args.repoId!r}: {root}"
            )
        if not target.is_dir():
            raise ToolInputError(f"path {args.path!r} is not a directory")
        scope = "" if target == root else target.relative_to(root).as_posix()
        return await asyncio.to_thread(self._changed, reg, root, scope)

    def _changed(self, reg: RepoRegistration, root: Path, scope: str) -> ChangedResult:
        repo_id = reg.repo_id
        prefix = f"{scope}/" if scope else ""
        indexed: dict[str, IndexedFile] = {}
        after: str | None = None
        while rows := self.views.files_under(repo_id, prefix, after, 1000):
            for r in rows:
                indexed[r.path] = IndexedFile(r.digest, r.size, r.mtime_ns, r.ingested_at)
            after = rows[-1].path
        changes = diff_against_index(root, reg.filters, indexed, scope)
        touched = set(changes.added) | set(changes.updated) | set(changes.removed)
        declared = [
            s
            for p in changes.updated + changes.removed
            for s in self.symbols.symbols_of_file(repo_id, p)
        ]
        return ChangedResult(
            repoId=repo_id,
            added=changes.added,
            updated=changes.updated,
            removed=changes.removed,
            dependents=self.dependents(repo_id, declared, exclude=touched),
        )
