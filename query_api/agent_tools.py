"""Tools beyond the reference that agents ask for: read-your-writes refresh.

`repocontext_refresh` re-reads the given paths now and answers only once the changes are
searchable (or the timeout passes, saying so), so an agent that just edited a file never
searches a stale index.
"""

from __future__ import annotations

import posixpath
import time

from query_api.errors import NotFoundError, ToolInputError
from query_api.service import RepoContextService
from schemas import tools as t
from streams.errors import SourceError
from streams.topology import Step


def normalise_repo_path(raw: str) -> str:
    """A repo-relative POSIX path that cannot leave the repository, or ToolInputError."""
    if not raw or any(ord(ch) < 32 for ch in raw):
        raise ToolInputError(f"`paths`: {raw[:60]!r} is empty or has a control character")
    text = raw.replace("\\", "/")
    if text.startswith("/"):
        raise ToolInputError(f"`paths`: {raw[:60]!r} must be relative to the repository root")
    norm = posixpath.normpath(text)
    if norm == ".." or norm.startswith("../"):
        raise ToolInputError(f"`paths`: {raw[:60]!r} leaves the repository")
    return "" if norm == "." else norm


def _is_vector_step(step: Step) -> bool:
    return "vector" in step.step_id


class AgentTools:
    def __init__(self, core: RepoContextService) -> None:
        self.core = core

    async def refresh(self, args: t.RefreshArgs) -> t.RefreshResult:
        if not self.core.ingest.is_registered(args.repoId):
            raise NotFoundError(
                f"unknown repository {args.repoId!r}; repocontext_list_repos shows registered ones"
            )
        paths = None
        if args.paths is not None:
            cleaned = [normalise_repo_path(p) for p in args.paths]
            paths = None if "" in cleaned else cleaned
        started = time.perf_counter()
        try:
            published, ends = await self.core.ingest.refresh(args.repoId, paths)
        except SourceError as exc:
            raise ToolInputError(str(exc)) from exc
        timeout = max(0.0, min(120.0, args.timeoutSeconds))
        skip = None if args.waitForVectors else _is_vector_step
        searchable = await self.core.runtime.wait_through(ends, timeout, skip=skip)
        return t.RefreshResult(
            repoId=args.repoId,
            published=published,
            searchable=searchable,
            waitedForVectors=args.waitForVectors,
            elapsedMilliseconds=int((time.perf_counter() - started) * 1000),
            freshness=await self.core.freshness(),
        )
