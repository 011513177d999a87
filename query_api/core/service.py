"""The tool handlers: what each MCP tool does, in terms of the log, the views and ingest.

Handlers never run raw SQL; they read through ViewStore's read API and change state only by
appending to the log (through the ingest coordinator), so every change is replayable.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from query_api.access.guard import WorkspaceGuard
from query_api.access.read_scope import current_caller, may_read
from query_api.access.repo_binding import check_binding
from query_api.core.index_build import building_line, building_note, cut_files, index_builds
from query_api.core.replica_lag import lag_not_ready, remote_freshness, unreachable_line
from query_api.core.search_merge import merge_search_answers
from query_api.core.search_ranking import WORD, Ranked, Ranking, rank_search
from query_api.errors import ConflictError, NotFoundError, ToolInputError
from query_api.metrics import Metrics
from query_api.retrieval.hit_details import HitLocator
from query_api.retrieval.no_match import indexed_so_far
from query_api.retrieval.readiness import Readiness
from query_api.retrieval.vector_coverage import coverage_line, mark_partial
from schemas import tools as t
from schemas.events import REPO_ID_PATTERN, RepoRegistration, WalkFilters, repo_id_from_name
from schemas.retrieval import SearchMode
from schemas.timestamps import iso_utc
from streams.ingest import IngestCoordinator
from streams.runtime.embedded import EmbeddedRuntime
from streams.sources.git_tracked import is_bare_repository
from streams.sources.patterns import glob_problem
from streams.stores.vectors import VectorStoreUnavailable
from streams.stores.views.read import repo_source
from streams.stores.views.sources import indexed_commit, source_of
from streams.stores.views.store import ViewStore

if TYPE_CHECKING:
    from query_api.retrieval.ladder import Retriever
    from query_api.retrieval.vector_plane import VectorPlane

log = logging.getLogger(__name__)
FRESHNESS_TTL_S = 0.05


def watch_lines(problems: dict[str, str]) -> list[str]:
    """One clause per repository whose watcher cannot watch, naming why."""
    return [f"not watching {repo_id!r}: {why}" for repo_id, why in sorted(problems.items())]


def checking_line(repo_ids: list[str]) -> str:
    shown = ", ".join(repo_ids[:5]) + (
        f" and {len(repo_ids) - 5} more" if len(repo_ids) > 5 else ""
    )
    return (
        f"checking: the files on disk of {shown} have not been compared with the views since "
        "start (pendingFiles unknown); answers may miss edits made while the server was down"
    )


class RepoContextService:
    def __init__(
        self,
        views: ViewStore,
        runtime: EmbeddedRuntime,
        ingest: IngestCoordinator,
        guard: WorkspaceGuard,
        readiness: Readiness,
        *,
        plane: VectorPlane | None = None,
        metrics: Metrics | None = None,
        max_ready_lag: int | None = None,
    ) -> None:
        self.views = views
        self.metrics = metrics
        self.runtime = runtime
        self.ingest = ingest
        self.guard = guard
        self.readiness = readiness
        self.plane = plane
        # One lag computation shared by concurrent answers (it costs log round trips that
        # queue behind the pipeline's own); at most FRESHNESS_TTL_S old when served.
        self._fresh: tuple[float, t.Freshness] | None = None
        self._fresh_lock = asyncio.Lock()
        # a replica's readiness bound on its lag (query: REPOCONTEXT_READY_MAX_LAG_EVENTS)
        self.max_ready_lag = max_ready_lag
        self.retriever: Retriever | None = plane.retriever if plane is not None else None
        self._locator = HitLocator(views)
        # where searches are ranked when not here (query_api/server/search_readers.py)
        self.ranking: Ranking | None = None
        # reset_index hooks of planes kept outside the views: repoId -> {tree: rows deleted}
        self.on_reset: list[Callable[[str], dict[str, int]]] = []

    # -- helpers ---------------------------------------------------------------------------

    async def freshness(self, repo_id: str | None = None) -> t.Freshness:
        """The log lag (shared, cached) plus, for `repo_id` (or the only repository when
        None), what its source knows that the views do not reflect yet."""
        fresh = await self.log_freshness()
        if repo_id is None:
            listed = {r.repo_id for r in self.views.list_repos()}
            ids = sorted(set(self.ingest.registered_ids()) | listed)
            if len(ids) != 1:
                pending = [self.ingest.pending_files(i) for i in ids]
                known = [p for p in pending if p is not None]
                total = sum(known) if known and len(known) == len(pending) else None
                vectors = await self._coverage(ids)
                return fresh.model_copy(
                    update={
                        "pendingFiles": total,
                        "vectors": vectors,
                        "indexing": index_builds(self.ingest, self.views, ids) or None,
                    }
                )
            repo_id = ids[0]
        # two primary-key reads of the views: cheaper inline than a thread hop
        source = self._source_freshness(repo_id, fresh.eventsBehind == 0)
        building = index_builds(self.ingest, self.views, [repo_id]) or None
        return fresh.model_copy(
            update=source | {"vectors": await self._coverage([repo_id]), "indexing": building}
        )

    async def _coverage(self, repo_ids: list[str]) -> t.VectorCoverage | None:
        """The vector plane's coverage of these repositories (retrieval/vector_coverage.py)."""
        reader = self.plane.coverage if self.plane is not None else None
        if reader is None or not repo_ids:
            return None
        try:
            return await asyncio.to_thread(reader.overall, repo_ids)
        except VectorStoreUnavailable as exc:  # a server down: the ladder warns per search
            log.info("vector coverage unavailable: %s", exc)
            return None
        except Exception:
            log.exception("vector coverage unavailable")
            return None

    def _source_freshness(self, repo_id: str, caught_up: bool) -> dict[str, object]:
        repo = self.views.read(lambda conn: repo_source(conn, repo_id))
        reg = self.ingest.registrations.get(repo_id)
        git = (reg is not None and reg.source == "git") or (
            repo is not None and repo.source == "git"
        )
        if not git:  # a watcher that cannot watch is the workspace's source error
            return {
                "pendingFiles": self.ingest.pending_files(repo_id),
                "sourceError": self.ingest.watch_problems().get(repo_id),
            }
        src = source_of(self.views, repo_id)
        return {
            "indexedCommit": indexed_commit(
                repo.indexed_commit if repo else None, src, caught_up=caught_up
            ),
            "sourceCommit": src.head_commit if src else None,
            "sourceCheckedAt": iso_utc(src.checked_at) if src else None,
            "sourceError": src.error if src else None,
        }

    async def log_freshness(self) -> t.Freshness:
        """The log lag alone (shared, cached), also reported as the events-behind metric. A
        remote log's is the runtime's background measurement: no answer waits on a broker."""
        if self.runtime.log.remote:
            fresh = await remote_freshness(self.runtime)
            if self.metrics is not None:
                self.metrics.set_events_behind(fresh.eventsBehind)
            return fresh
        cached = self._fresh
        if cached is not None and time.monotonic() - cached[0] < FRESHNESS_TTL_S:
            return cached[1]
        async with self._fresh_lock:
            cached = self._fresh
            if cached is not None and time.monotonic() - cached[0] < FRESHNESS_TTL_S:
                return cached[1]
            lag = await self.runtime.lag()
            fresh = t.Freshness(
                appliedOffsets=lag.applied,
                logEndOffsets=lag.end,
                eventsBehind=lag.behind,
                secondsBehind=lag.seconds_behind,
            )
            self._fresh = (time.monotonic(), fresh)
            if self.metrics is not None:
                self.metrics.set_events_behind(lag.behind)
            return fresh

    def require_repo(self, repo_id: str) -> None:
        """NotFoundError unless the repository is registered (in the views or the ingest)."""
        known = self.views.read(lambda conn: repo_source(conn, repo_id)) is not None
        if not known and not self.ingest.is_registered(repo_id):
            raise NotFoundError(
                f"unknown repository {repo_id!r}; repocontext_list_repos shows registered ones"
            )

    # -- tools -----------------------------------------------------------------------------

    async def health(self, args: t.NoArgs) -> t.HealthResult:
        has_repos = bool(self.ingest.registered_ids()) or bool(self.views.list_repos())
        phase, ready, status = self.readiness.verdict(has_repos=has_repos)
        fresh: t.Freshness | None = None
        try:
            fresh = await self.freshness()  # also re-checks the views against the log's end
        except Exception as exc:  # an unreadable log is a fault to report, not a crash
            self.runtime.health.step_failed("freshness", exc)
        fault = self.runtime.health.reason()
        if fault is not None:
            ready, status = False, f"not ready: {fault}"
        unchecked = self.ingest.unchecked()
        if unchecked:
            status += "; " + checking_line(unchecked)
        if fresh is not None and fresh.eventsBehind:
            status += f"; views trail the log by {fresh.eventsBehind} events"
        if fresh is not None:
            status += "".join("; " + building_line(build) for build in fresh.indexing or [])
        away = unreachable_line(self.runtime)
        if away is not None:
            status += "; " + away
        unwatched = watch_lines(self.ingest.watch_problems())
        if unwatched:  # their views no longer follow the disk: not ready, and say why first
            ready = False
            status = "not ready: " + "; ".join([*unwatched, status.removeprefix("ready: ")])
        if fresh is not None and fresh.vectors is not None and not fresh.vectors.complete:
            status += "; " + coverage_line(fresh.vectors)
        waiting = self.plane.waiting_line() if self.plane is not None else None
        if waiting is not None:
            status += "; " + waiting
        failing = self.plane.failing_line() if self.plane is not None else None
        if failing is not None:
            status += "; " + failing
        return t.HealthResult(
            status=status, retrievalReady=ready, retrievalPhase=phase, freshness=fresh
        )

    def not_ready_reasons(self) -> list[str]:
        """Why the server should not take traffic yet although retrieval may answer: a
        faulted log, or repositories whose disk was not compared with the views since start."""
        reasons = []
        fault = self.runtime.health.reason()
        if fault is not None:
            reasons.append(fault)
        unchecked = self.ingest.unchecked()
        if unchecked:
            reasons.append(checking_line(unchecked))
        behind = lag_not_ready(self.runtime, self.max_ready_lag)
        if behind is not None:
            reasons.append(behind)
        return reasons + watch_lines(self.ingest.watch_problems())

    async def list_repos(self, args: t.NoArgs) -> t.ListReposResult:
        rows = []
        caught_up = (await self.log_freshness()).eventsBehind == 0
        for repo in self.views.list_repos():
            rows.append(
                t.RepoSummary(
                    repoId=repo.repo_id,
                    lastIngested=iso_utc(repo.last_ingested),
                    fileCount=self.views.file_count(repo.repo_id) if repo.last_ingested else None,
                    indexedRoot=repo.root,
                    indexedCommit=indexed_commit(
                        repo.indexed_commit,
                        source_of(self.views, repo.repo_id),
                        caught_up=caught_up,
                    )
                    if repo.source == "git"
                    else repo.indexed_commit,
                    **await self._embedded_count(repo.repo_id),
                )
            )
        # registered here but not in the views yet (its first records still on their way):
        # listed, with no file count, as health and every answer's freshness already say;
        # a sharded replica lists only its own shard's (the repos topic reaches every shard)
        listed = {row.repoId for row in rows}
        for repo_id in self.ingest.registered_ids():
            registration = self.ingest.registrations.get(repo_id)
            held = self.runtime.shard.holds_repo(repo_id)
            if repo_id not in listed and registration is not None and held:
                rows.append(t.RepoSummary(repoId=repo_id, indexedRoot=registration.root))
        rows.sort(key=lambda row: row.repoId)
        return t.ListReposResult(repositories=rows, count=len(rows))

    async def _embedded_count(self, repo_id: str) -> dict[str, Any]:
        """`embeddedVectorCount` (sources with a real embedding) when a vector plane exists."""
        counts = (
            await asyncio.to_thread(self.plane.embedded_counts, repo_id) if self.plane else None
        )
        if counts is None:
            return {}
        pending = bool(self.plane and self.plane.indexer and await self.plane.indexer.behind())
        coverage = await self._coverage([repo_id])
        return {
            "embeddedVectorCount": sum(counts),
            "embeddedVectorCountPending": pending,
            "vectorCoverage": coverage,
        }

    async def index_status(self, args: t.RepoIdArgs) -> t.IndexStatus:
        snapshot = self.ingest.job(args.repoId) or await asyncio.to_thread(
            self.ingest.saved_job, args.repoId
        )
        if not snapshot:
            return await asyncio.to_thread(self._git_sourced_status, args.repoId)
        counts = (
            await asyncio.to_thread(self.plane.embedded_counts, args.repoId) if self.plane else None
        )
        if counts is not None:
            snapshot = {**snapshot, "filesEmbedded": counts[0], "symbolsEmbedded": counts[1]}
        cut = await asyncio.to_thread(cut_files, self.views, args.repoId)
        return t.IndexStatus.model_validate({**snapshot, **cut, "repoId": args.repoId})

    def _git_sourced_status(self, repo_id: str) -> t.IndexStatus:
        """A repository no job of this process indexes: a git-source process publishes its
        commits (Completed once one is applied: what the views hold, and when), else None."""
        repo = self.views.get_repo(repo_id)
        if repo is None or repo.source != "git" or repo.last_ingested is None:
            return t.IndexStatus(repoId=repo_id, status="None")
        src = source_of(self.views, repo_id)
        return t.IndexStatus.model_validate(
            {
                "repoId": repo_id,
                "status": "Completed",
                "phase": "Done",
                "filesScanned": self.views.file_count(repo_id),
                "completedAt": iso_utc(repo.last_ingested),
                "error": src.error if src is not None else None,
                **cut_files(self.views, repo_id),
            }
        )

    def bound_roots(self) -> dict[str, Path]:
        """Every workspace repository id and the directory it is bound to (views + ingest)."""
        bound = {
            repo.repo_id: Path(repo.root)
            for repo in self.views.list_repos()
            if repo.source == "workspace" and repo.root
        }
        for repo_id, reg in self.ingest.registrations.items():
            if reg.source == "workspace" and reg.root:
                bound[repo_id] = Path(reg.root)
        return bound

    async def add_repo(
        self,
        args: t.AddRepoArgs,
        *,
        force_full: bool = True,
        launch: bool = True,
        repoint: bool = False,
    ) -> t.IndexStatus:
        root = self.guard.resolve(args.path)
        if not root.is_dir():
            what = "is not a directory" if root.exists() else "does not exist"
            raise ToolInputError(f"`path`: {args.path!r} {what} (resolved: {root})")
        if is_bare_repository(root):
            raise ToolInputError(
                f"`path`: {args.path!r} is a bare git repository (no work tree to index); "
                "serve its commits with `repocontext git-source`, or add a checkout of it"
            )
        # the path's final segment as written (spec; a symlink's own name, as the access
        # check reads it), the directory's own name where that is `.` or `..`
        repo_id = (
            args.repoId
            or repo_id_from_name(os.path.basename(args.path.rstrip("/\\")))
            or repo_id_from_name(os.path.basename(str(root).rstrip(os.sep)))
        )
        if not repo_id:
            raise ToolInputError("`repoId`: could not derive a repoId from the path; pass one")
        if not REPO_ID_PATTERN.match(repo_id):
            raise ToolInputError(
                f"`repoId`: {repo_id[:40]!r} is not a valid id (letters, digits, '.', '_', '-')"
            )
        for name, globs in (
            ("includeGlobs", args.includeGlobs),
            ("excludeGlobs", args.excludeGlobs),
        ):
            for index, glob in enumerate(globs or ()):
                if (problem := glob_problem(glob)) is not None:  # linear-time, bounded patterns
                    raise ToolInputError(f"`{name}[{index}]`: {glob[:60]!r} {problem}")
        existing = self.views.get_repo(repo_id)
        if existing is not None and existing.source == "git":
            raise ConflictError(
                f"repository {repo_id!r} is git-sourced; a repository has one source kind"
            )
        check_binding(current_caller(), repo_id, root, self.bound_roots(), repoint=repoint)
        registration = RepoRegistration(
            repo_id=repo_id,
            source="workspace",
            root=str(root),
            filters=WalkFilters(
                include_globs=tuple(args.includeGlobs or ()),
                exclude_globs=tuple(args.excludeGlobs or ()),
                respect_gitignore=args.respectGitignore,
                exclude_binary=args.excludeBinary,
            ),
            registered_at=time.time(),
        )
        await self.ingest.register(registration, force_full=force_full, launch=launch)
        return await self.index_status(t.RepoIdArgs(repoId=repo_id))

    async def ensure_repo(
        self, path: str, repo_id: str | None = None, *, launch: bool = True, rerun: bool = False
    ) -> RepoRegistration:
        """Register `path` unless it already is, with the same root (CLI start-up); with
        `rerun`, a repository already registered there gets a fresh pass (an attached
        `index`: the owner's watch keeps it current, yet the command reports a pass)."""
        root = self.guard.resolve(path)
        wanted = repo_id or repo_id_from_name(os.path.basename(str(root).rstrip(os.sep)))
        current = self.ingest.registrations.get(wanted)
        if current is not None and current.root == str(root):
            if rerun and current.source == "workspace":
                await self.ingest.rerun(wanted)
            return current
        if current is not None:  # the operator's own command may move an id, never silently
            log.warning("re-pointing repository %s from %s to %s", wanted, current.root, root)
        args = t.AddRepoArgs(path=path, repoId=wanted)
        await self.add_repo(args, force_full=False, launch=launch, repoint=True)
        return self.ingest.registrations[wanted]

    async def remove_repo(self, args: t.RepoIdArgs) -> t.RemoveRepoResult:
        removed = await self.ingest.unregister(args.repoId)
        return t.RemoveRepoResult(repoId=args.repoId, entriesRemoved=removed)

    async def reset_index(self, args: t.RepoIdArgs) -> t.ResetIndexResult:
        self.require_repo(args.repoId)
        started = time.perf_counter()
        swept = await self.runtime.rebuild_repo(args.repoId)
        for hook in self.on_reset:  # planes outside the views (context sessions)
            swept.update(hook(args.repoId))
        return t.ResetIndexResult(
            repoId=args.repoId,
            entriesDeleted=sum(swept.values()),
            elapsedMilliseconds=int((time.perf_counter() - started) * 1000),
            treesSwept=list(swept),
            memoryPreserved=True,
            censusCleared=True,
        )

    async def search(self, args: t.SearchArgs, *, details: bool = True) -> t.SearchResult:
        """The retrieval ladder lives in query_api/retrieval/ladder.py; here each hit gets its
        lines and snippet (retrieval/hit_details.py, with `details`), and an answer in which no
        hit holds the query's words nor is semantically close says so instead (`hits: []`).
        Without a repository: every repository the caller may read, merged by score."""
        if args.repoId is None:
            return await self._search_every_repo(args, details)
        self.require_repo(args.repoId)
        ranking = self.ranking.rank if self.ranking is not None else self.rank_here
        ranked = await ranking(args, details)
        hits, note = ranked.hits, ranked.note
        fresh = await self.freshness(args.repoId)
        if ranked.mode == SearchMode.SEMANTIC:  # over partial coverage: the hits say so
            hits = mark_partial(hits, fresh.vectors)
        if fresh.indexing and WORD.search(args.query):  # part of the files: not final
            own = indexed_so_far(note, args.repoId) if note else None
            note = "; ".join(filter(None, (building_note(fresh.indexing), own)))
        return t.SearchResult(
            repoId=args.repoId,
            query=args.query,
            mode=ranked.mode,
            retrievalPath=ranked.path,
            hits=hits,
            note=note,
            freshness=fresh,
        )

    async def rank_here(self, args: t.SearchArgs, details: bool) -> Ranked:
        """One repository's search ranked in this process (`args.repoId` is set)."""
        assert args.repoId is not None
        return await rank_search(self._retriever(), self._locator, args.repoId, args, details)

    def _retriever(self) -> Retriever:
        if self.retriever is None:
            from query_api.retrieval.vector_plane import keyword_only_retriever

            self.retriever = keyword_only_retriever(self.views, self.readiness)
        return self.retriever

    async def _search_every_repo(self, args: t.SearchArgs, details: bool) -> t.SearchResult:
        listed = {r.repo_id for r in self.views.list_repos()} | set(self.ingest.registered_ids())
        answers = [
            await self.search(args.model_copy(update={"repoId": repo_id}), details=details)
            for repo_id in sorted(listed)
            if may_read(repo_id)
        ]
        return merge_search_answers(args.query, args.k, answers, await self.freshness())
