"""Tools beyond the reference that agents ask for: read-your-writes refresh, eval.

`repocontext_refresh` re-reads the given paths now and answers only once the changes are
searchable (or the timeout passes, saying so), so an agent that just edited a file never
searches a stale index.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from query_api.access.repo_paths import path_in_repo
from query_api.core.index_build import building_line, index_builds
from query_api.core.service import RepoContextService
from query_api.errors import ConflictError, NotFoundError, ToolInputError
from query_api.evaluation.history import (
    Rung,
    RungUnavailable,
    cache_path,
    evaluate,
    head_commit,
    load_cached,
    mine_cases,
    shallow_refusal,
    store_cached,
)
from query_api.symbols.path_suffix import files_ending_with
from schemas import tools as t
from schemas.topics import partition_for
from streams.errors import SourceError
from streams.pacer import ForegroundPacer
from streams.stores.views.store import ViewStore
from streams.topology import vector_step

if TYPE_CHECKING:
    from query_api.retrieval.file_graph import FileGraphs


def retrieval_rungs(plane: Any) -> Callable[[str], dict[str, Rung]]:
    """Vector and hybrid rungs over the plane's embedder and store, when one is bound.

    Each rung gets its own Retriever (and a private Readiness, so evaluation never moves the
    server's verdict); a repository with no vectors yet, or an answer that fell back to
    keyword, makes the rung unavailable (skipped with the reason), so the vector rung is
    never silently BM25 and never a row of zeros."""
    from query_api.retrieval.ladder import Retriever
    from query_api.retrieval.readiness import Readiness
    from schemas.retrieval import SearchMode

    def rungs(repo_id: str) -> dict[str, Rung]:
        base = getattr(plane, "retriever", None)
        if base is None or not base.bound:
            return {}
        made: dict[str, Rung] = {}
        for name, hybrid in (("vector", False), ("hybrid", True)):
            retriever = Retriever(
                base.views,
                base.embedder,
                base.store,
                Readiness(embedder_bound=True),
                hybrid=hybrid,
                graphs=base.graphs,
            )

            async def rung(query: str, retriever: Retriever = retriever) -> list[str]:
                store = retriever.store
                if store is not None and await asyncio.to_thread(store.count, repo_id=repo_id) == 0:
                    raise RungUnavailable(NO_VECTORS)
                # the same answers whichever case comes first: the file graph is built
                await asyncio.to_thread(retriever.graphs.wait, repo_id, GRAPH_WAIT_S)
                answer = await retriever.search(repo_id, query, 10)
                if answer.mode != SearchMode.SEMANTIC:
                    raise RungUnavailable(
                        f"semantic search answered from keyword instead ({answer.path.value})"
                    )
                return ranked_paths(answer.hits)

            made[name] = rung
        return made

    return rungs


def keyword_rung(views: ViewStore, graphs: FileGraphs | None, repo_id: str) -> Rung:
    """The keyword rung: the ladder with nothing bound, as `repocontext_search` answers with
    `--embedder none` and as the benchmark's `keyword` system ranks. Bare BM25 (keyword_hits)
    left out the ladder's finish, a test's subject placed above it and the tail filled with
    the head's neighbours, so the rung scored a ranking no agent is given. `graphs`: the
    server's file graphs, when it has them (None: built here)."""
    from query_api.retrieval.ladder import Retriever
    from query_api.retrieval.readiness import Readiness
    from streams.embedders import NoEmbedder

    retriever = Retriever(views, NoEmbedder(), None, Readiness(), graphs=graphs)

    async def rung(query: str) -> list[str]:
        # the same answers whichever case comes first: the file graph is built
        await asyncio.to_thread(retriever.graphs.wait, repo_id, GRAPH_WAIT_S)
        return ranked_paths((await retriever.search(repo_id, query, 10)).hits)

    return rung


def ranked_paths(hits: list[t.SearchHit]) -> list[str]:
    """A ranking's files, each once at its first place (a symbol or memory hit counts for
    its file)."""
    paths = [h.entry.path or h.entry.fields.get("filePath") for h in hits]
    return list(dict.fromkeys(p for p in paths if p))


VECTOR_POLL_S = 0.02  # how often refresh(waitForVectors) checks the vector step's position
GRAPH_WAIT_S = 120.0  # longest an evaluation waits for the repository's file graph
NO_EMBEDDER = "no embedder is configured (--embedder none / REPOCONTEXT_EMBEDDER=none)"
NO_VECTORS = (
    "this repository has no vectors yet: run `repocontext index --vectors PATH` first, or let "
    "a running server finish its embedding backfill"
)


def indexed_paths(views: ViewStore, repo_id: str) -> list[str]:
    """Every path of the repository the views hold (blocking; call from a thread)."""
    paths: list[str] = []
    after: str | None = None
    while rows := views.files_under(repo_id, "", after, 1000):
        paths.extend(r.path for r in rows)
        after = rows[-1].path
    return paths


class AgentTools:
    def __init__(
        self,
        core: RepoContextService,
        data_dir: Path,
        extra_rungs: Callable[[str], dict[str, Rung]] | None = None,
        pacer: ForegroundPacer | None = None,
    ) -> None:
        self.core = core
        self.data_dir = data_dir
        # the tool calls' foreground lease: a refresh waiting for vectors steps out of it
        self.pacer = pacer
        # vector/hybrid rungs for a repository, when an embedder is bound
        self.extra_rungs = extra_rungs

    async def _embedded_through(self, repo_id: str, deadline: float) -> bool:
        """Wait until this process's vector step (the topology's `vectors` step, run by the
        vector plane) has consumed its inputs up to their ends now, for the repository's
        partition: the processors' records of the changes just waited for are before those
        ends. True at once when vectors are not embedded here (no embedder, or a replica
        whose vectors a worker writes)."""
        plane = self.core.plane
        indexer = plane.indexer if plane is not None and plane.writer else None
        if indexer is None:
            return True
        log = self.core.runtime.log
        ends: dict[tuple[str, int], int] = {}
        for topic in vector_step().inputs:
            partition = partition_for(f"{repo_id}/", await log.partitions(topic))
            ends[(topic, partition)] = await log.end_offset(topic, partition)
        for (topic, partition), end in ends.items():
            while await log.committed(indexer.group, topic, partition) < end:
                if time.monotonic() > deadline:
                    return False
                indexer.notify()
                await asyncio.sleep(VECTOR_POLL_S)
        return True

    async def eval(
        self, args: t.EvalArgs, on_progress: Callable[[int, int | None], None] | None = None
    ) -> t.EvalResult:
        """Mine the repository's history into query -> files cases and score each rung;
        `on_progress(cases scored, cases)` after each case (the CLI's progress)."""
        registration = self.core.ingest.registrations.get(args.repoId)
        if registration is None or registration.root is None:
            raise NotFoundError(
                f"unknown repository {args.repoId!r}; repocontext_list_repos shows registered ones"
            )
        builds = index_builds(self.core.ingest, self.core.views, [args.repoId])
        if builds:  # the files not indexed yet would drop out of the cases: scores of nothing
            raise ConflictError(
                f"cannot evaluate yet: {building_line(builds[0])}; eval scores the complete "
                "index: retry once repocontext_index_status says Completed"
            )
        started = time.perf_counter()
        root = Path(registration.root)
        commit = await asyncio.to_thread(head_commit, root)
        if commit is None:
            raise ToolInputError(f"{args.repoId!r} is not a git checkout: eval mines git history")
        if (shallow := await asyncio.to_thread(shallow_refusal, root)) is not None:
            raise ToolInputError(shallow)
        views = self.core.views

        graphs = self.core.retriever.graphs if self.core.retriever is not None else None
        rungs: dict[str, Rung] = {"keyword": keyword_rung(views, graphs, args.repoId)}
        if self.extra_rungs is not None:
            rungs.update(self.extra_rungs(args.repoId))
        skipped = {} if len(rungs) > 1 else {"vector": NO_EMBEDDER, "hybrid": NO_EMBEDDER}
        max_cases = max(1, min(500, args.maxCases))
        applied = (await self.core.runtime.lag()).applied  # notes and edits move it
        cache = cache_path(
            self.data_dir, args.repoId, f"{commit}-{max_cases}-{applied}", list(rungs)
        )
        cached = await asyncio.to_thread(load_cached, cache)
        note = None
        if cached is not None:
            scores, count = cached, max((s.cases for s in cached), default=0)
        else:
            indexed = set(await asyncio.to_thread(indexed_paths, views, args.repoId))
            cases = await asyncio.to_thread(mine_cases, root, indexed, max_cases=max_cases)
            budget = max(1.0, min(600.0, args.budgetSeconds))
            scores, unavailable = await evaluate(
                cases, rungs, budget_s=budget, on_progress=on_progress
            )
            skipped.update(unavailable)
            count = len(cases)
            done = max((s.cases for s in scores), default=0)
            if not cases:  # nothing measured: no scores of 0, and nothing cached
                scores = []
                note = (
                    "no commit asking for a change that changed 1-5 source files (tests, "
                    "docs and generated files aside)"
                )
            elif done == count and not unavailable:  # a skipped rung may be measurable later
                await asyncio.to_thread(store_cached, cache, scores)
            elif done < count:
                note = f"time budget reached after {done} of {count} cases (not cached)"
        if skipped and note is None:
            note = f"not measured: {', '.join(skipped)} ({next(iter(skipped.values()))})"
        return t.EvalResult(
            repoId=args.repoId,
            indexedCommit=commit,
            cases=count,
            rungs=[t.RungScoreView(**asdict(s)) for s in scores],
            skippedRungs=[t.SkippedRung(rung=r, reason=why) for r, why in skipped.items()],
            cached=cached is not None,
            elapsedMilliseconds=int((time.perf_counter() - started) * 1000),
            note=note,
        )

    async def refresh(self, args: t.RefreshArgs) -> t.RefreshResult:
        registration = self.core.ingest.registrations.get(args.repoId)
        repo = self.core.views.get_repo(args.repoId)
        known = registration or repo
        if known is not None and known.source == "git":
            ref = repo.ref if repo is not None else None
            raise ConflictError(  # a git-source process publishes it, commit by commit
                f"repository {args.repoId!r} is git-sourced: its git-source process publishes "
                f"each new commit of {ref or 'its ref'}; refresh re-reads the files of a "
                "workspace repository"
            )
        if registration is None:
            raise NotFoundError(
                f"unknown repository {args.repoId!r}; repocontext_list_repos shows registered ones"
            )
        paths = None
        if args.paths is not None:
            cleaned = [path_in_repo(p, registration, "paths") for p in args.paths]
            paths = None if "" in cleaned else cleaned
        started = time.perf_counter()
        try:
            published, ends = await self.core.ingest.refresh(args.repoId, paths)
        except SourceError as exc:
            raise ToolInputError(str(exc)) from exc
        timeout = max(0.0, min(120.0, args.timeoutSeconds))
        deadline = time.monotonic() + timeout
        applied = await self.core.runtime.wait_through(ends, timeout)
        searchable = applied
        if searchable and args.waitForVectors:
            with self.pacer.aside() if self.pacer is not None else contextlib.nullcontext():
                searchable = await self._embedded_through(args.repoId, deadline)
        # a path the views lack says it will not be indexed only once they hold the re-read
        # (before that, a file the agent just wrote is not there yet either)
        missing = (
            await asyncio.to_thread(self._not_indexed, args.repoId, paths or []) if applied else []
        )
        return t.RefreshResult(
            repoId=args.repoId,
            published=published,
            searchable=searchable,
            waitedForVectors=args.waitForVectors,
            elapsedMilliseconds=int((time.perf_counter() - started) * 1000),
            freshness=await self.core.freshness(args.repoId),
            notIndexed=missing or None,
            note=await asyncio.to_thread(self._missing_note, args.repoId, missing),
        )

    def _missing_note(self, repo_id: str, missing: list[str]) -> str | None:
        """The note on paths not indexed, naming the file a path is the end of (`jinja2/
        utils.py` of src/jinja2/utils.py): the agent wrote it from the package, not the root."""
        if not missing:
            return None
        indexed = [p for p, _, _ in self.core.views.text_file_sizes(repo_id)]
        ends = [
            f"{path} is the end of {' or '.join(files[:MAX_ENDS])}"
            for path in missing
            if (files := files_ending_with(path, indexed))
        ]
        hint = f"; paths are from the repository root: {', '.join(ends)}" if ends else ""
        return _not_indexed_note(missing) + hint

    def _not_indexed(self, repo_id: str, paths: list[str]) -> list[str]:
        """The named paths no indexed file is at or under, in the order named: an agent
        that refreshed a file it just wrote learns it will not be searchable, not only
        that nothing was published."""
        views = self.core.views
        return [
            path
            for path in dict.fromkeys(paths)
            if views.get_file(repo_id, path) is None
            and not views.files_under(repo_id, path.rstrip("/") + "/", limit=1)
        ]


MAX_ENDS = 3  # indexed files a not-indexed path's note names as the ones it may mean


def _not_indexed_note(paths: list[str]) -> str:
    return (
        f"{len(paths)} of the paths named are not indexed (notIndexed): missing, ignored "
        "(.gitignore or the walk's filters), binary, a symbolic link or not a regular file"
    )
