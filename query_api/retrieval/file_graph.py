"""Which files belong together: per repository, the files each file imports or is used by.

A change request usually touches files that depend on each other (a locale and the index that
lists it, a class and its base, a handler and the warnings it raises), and the words of the
request often name only one of them. Search fills the tail of its answer with the neighbours of
its best hits (query_api/retrieval/neighbour_fill.py); this module keeps the graph it reads.

Edges, undirected: p-d when d references a declaration of p (exactly the dependents the
`related` tool lists), and p-c when p imports a module that is the file c (TS/JS modules as
`related` shows them, path aliases resolved; Python dotted modules; an `index`, `__init__`,
`mod` or `lib` file standing for its folder).

Dependents need every file's references, so a repository's graph is built whole, on one
background thread at a lowered priority, and rebuilt when the views have moved on and the last
build is older than `rebuild_after_s` and than REBUILD_COST_FACTOR times its own duration (a
repository whose build takes 40 s is rebuilt at most every 400 s, a small one within a second
of the views settling). A graph begun while the index was incomplete (indexing, a views
rebuild: the host says so through `index_settled`) is not served once the index is complete:
it is rebuilt at once, and until then answers fill no tail, as a server started on the
complete index does before its first build. A query takes the last complete graph, and waits
(at most INLINE_WAIT_S) only for a build expected to be cheap; a file gone since is dropped
when its hit is hydrated. Bounded: repositories over MAX_FILES files get a graph without
edges, and a file keeps at most MAX_DEGREE neighbours.

Go and JVM files are left out: their packages are directories whose files see each other
without an import, so their dependents are matched by name across a whole package and say
little about which files change together (docs/benchmarks.md has the measurement).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import threading
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping

from query_api.retrieval.build_reads import BuildSymbolViews
from query_api.symbols.dependents import (
    PACKAGE_IS_DIRECTORY,
    DependentsResolver,
    language_family,
)
from streams.stores.views.store import ViewStore
from streams.stores.views.symbols import SymbolViews

log = logging.getLogger(__name__)

MAX_FILES = 20_000  # beyond this a build takes minutes on two cores: no graph
MAX_DEGREE = 200  # neighbours kept per file (a hub's edges say little anyway)
MAX_CANDIDATES = 3  # files one imported module may be
PAGE = 1000  # paths read per views call while listing a repository
BUILD_NICE = 10  # the builder yields the CPU to queries and indexing
INLINE_BUILD_S = 0.05  # a rebuild this cheap runs in the query that finds the graph stale
INLINE_FIRST_FILES = 300  # a first build of a repository this small too
# how long a query waits for a build it started as cheap: a small repository of generated
# modules declaring the same names over and over builds for many seconds; past this the
# query answers without the graph and the build goes on at the background's priority
INLINE_WAIT_S = 2.0
REBUILD_COST_FACTOR = 10.0  # builds take at most a tenth of a core while edits keep coming
SETTLE_POLL_S = 1.0  # how often a host looks whether its index is complete
UNSETTLED_LOOKS = 2  # looks in a row that make it incomplete: one edit's apply is not indexing

Graph = Mapping[str, frozenset[str]]
# views position built from, when it was built, seconds it took, graph, and the settled
# stretch of the index it was built in (None: the index changed under the build)
Built = tuple[int, float, float, Graph, int | None]

_SOURCE_SUFFIX = re.compile(r"\.(d\.ts|[cm]?[jt]sx?|py|go|rs|java|kt|cs|rb|php|c|h|cc|cpp|hpp)$")
_FOLDER_FILES = ("/index", "/__init__", "/mod", "/lib")


class ModuleFiles:
    """Import strings to the repository files they may name (see the module docstring)."""

    def __init__(self, paths: list[str]) -> None:
        self.by_stem: dict[str, list[str]] = defaultdict(list)
        for path in paths:
            stem = _SOURCE_SUFFIX.sub("", path)
            self.by_stem[stem].append(path)
            for tail in _FOLDER_FILES:
                if stem.endswith(tail):
                    self.by_stem[stem[: -len(tail)]].append(path)
        self.by_last: dict[str, list[str]] = defaultdict(list)
        for stem in self.by_stem:
            self.by_last[stem.rpartition("/")[2]].append(stem)

    def files(self, module: str) -> list[str]:
        name = module.strip("./")
        found = self.by_stem.get(name)
        if not found and "/" not in name and "." in name:  # a dotted module: a.b.c
            dotted = name.replace(".", "/")
            stems = self.by_last.get(dotted.rpartition("/")[2], [])
            found = [
                path
                for stem in stems
                if stem == dotted or stem.endswith("/" + dotted)
                for path in self.by_stem[stem]
            ]
        return (found or [])[:MAX_CANDIDATES]


def build_graph(
    paths: list[str],
    imports: Callable[[str], list[str]],
    dependents: Callable[[str], list[str]],
    stop: threading.Event | None = None,
) -> dict[str, frozenset[str]]:
    """The undirected graph over `paths`: each file's resolved imports and its dependents."""
    modules = ModuleFiles(paths)
    edges: dict[str, set[str]] = defaultdict(set)
    for path in paths:
        if stop is not None and stop.is_set():
            break
        linked = set(dependents(path))
        for module in imports(path):
            linked.update(modules.files(module))
        linked.discard(path)
        for other in linked:
            edges[path].add(other)
            edges[other].add(path)
    return {path: frozenset(sorted(near)[:MAX_DEGREE]) for path, near in edges.items()}


class FileGraphs:
    """The latest graph of each repository, rebuilt in the background (module docstring)."""

    def __init__(
        self,
        views: ViewStore,
        *,
        rebuild_after_s: float = 1.0,
        read_text: Callable[[str, str], str | None] | None = None,
    ) -> None:
        self.views = views
        self.symbols = SymbolViews(views)
        self.resolver = DependentsResolver(self.symbols, read_text or self._text_of)
        self.rebuild_after_s = rebuild_after_s
        self._graphs: dict[str, Built] = {}
        self._settled = True  # whether the index is complete (index_settled)
        self._stretch = 0  # settled stretches begun: a graph of an earlier one is out of date
        self._building: dict[str, threading.Event] = {}  # repo -> set when that build ends
        self._lock = threading.Lock()
        self._stop = threading.Event()

    def _text_of(self, repo_id: str, path: str) -> str | None:
        content = self.views.get_content(repo_id, path)
        return content.body if content is not None else None

    def index_settled(self, settled: bool, stretch: int | None = None) -> None:
        """The host's word on whether the views hold the complete index (no indexing running,
        caught up with the log). A search reader passes its owner's `stretch` (settled
        stretches begun, `settled_state`), so a stretch it did not see between two searches
        still counts."""
        with self._lock:
            if stretch is not None:
                self._stretch = stretch
            elif settled and not self._settled:
                self._stretch += 1
            self._settled = settled

    def settled_state(self) -> tuple[bool, int]:
        with self._lock:
            return self._settled, self._stretch

    def graph(self, repo_id: str) -> Graph | None:
        """The latest graph of the repository (None before the first build ends, and while
        a graph begun over an incomplete index is rebuilt); an out of date one is rebuilt in
        the background, or waited for when that is cheap (a build that took under
        INLINE_BUILD_S, or a first build of a small repository), so small repositories
        answer from a graph of the current views and every replica alike. The wait is
        bounded (INLINE_WAIT_S): past it the answer goes without, as a large one's does."""
        with self._lock:
            known = self._current(repo_id)
            stale = known is not None and self._settled and known[4] != self._stretch
            due = (
                known is None
                or stale
                or (
                    time.monotonic() - known[1]
                    >= max(self.rebuild_after_s, REBUILD_COST_FACTOR * known[2])
                    and self._views_position() != known[0]
                )
            )
            start = due and repo_id not in self._building and not self._stop.is_set()
            if start:
                done = threading.Event()
                self._building[repo_id] = done
        served = known[3] if known is not None and not stale else None
        if not start:
            return served
        cheap = self._cheap(repo_id, known)
        threading.Thread(
            target=self._build, args=(repo_id, done, not cheap), name="file-graph", daemon=True
        ).start()
        if not cheap or not done.wait(INLINE_WAIT_S):
            return served
        with self._lock:
            latest = self._graphs.get(repo_id)
        return latest[3] if latest is not None else None

    def _current(self, repo_id: str) -> Built | None:
        """The repository's graph; one of an earlier settled stretch (or begun over an
        incomplete index) counts as of this stretch when the views have not moved since its
        build began: it was built over what they hold now. Called under the lock."""
        known = self._graphs.get(repo_id)
        if (
            known is not None
            and self._settled
            and known[4] != self._stretch
            and self._views_position() == known[0]
        ):
            known = (*known[:4], self._stretch)
            self._graphs[repo_id] = known
        return known

    def _cheap(self, repo_id: str, known: Built | None) -> bool:
        if known is not None:
            return known[2] <= INLINE_BUILD_S
        try:
            return self.views.file_count(repo_id) <= INLINE_FIRST_FILES
        except Exception:  # a closed or broken store: the background build says why
            return False

    def wait(self, repo_id: str, timeout: float) -> bool:
        """Start a build if none is current and wait for it to end (benchmarks and tests):
        True once the repository has a graph."""
        if self.graph(repo_id) is not None:
            return True
        with self._lock:
            done = self._building.get(repo_id)
        if done is not None:
            done.wait(timeout)
        with self._lock:
            return repo_id in self._graphs

    def close(self) -> None:
        self._stop.set()

    def _views_position(self) -> int:
        try:
            return self.views.total_applied()
        except Exception:  # a closed or broken store: treat as unchanged
            return -1

    def _build(self, repo_id: str, done: threading.Event, background: bool = True) -> None:
        """Build on this (its own) thread: at a lowered priority, or, for a build a query
        waits for, at the query's priority until INLINE_WAIT_S have passed."""
        lower = _Lowering(time.monotonic() + (0.0 if background else INLINE_WAIT_S))
        try:
            settled, stretch = self.settled_state()
            position = self._views_position()
            started = time.monotonic()
            graph = self._build_graph(repo_id, lower)
            if graph is not None and not self._stop.is_set():
                with self._lock:
                    took = time.monotonic() - started
                    kept = settled and self._settled and self._stretch == stretch
                    built = (position, time.monotonic(), took, graph, stretch if kept else None)
                    self._graphs[repo_id] = built
                log.debug(
                    "file graph of %s: %d files linked in %.1f s",
                    repo_id,
                    len(graph),
                    time.monotonic() - started,
                )
        except Exception:  # the views closed under a build, or a bad record: no graph
            log.debug("file graph of %s not built", repo_id, exc_info=True)
        finally:
            with self._lock:
                self._building.pop(repo_id, None)
            done.set()

    def _build_graph(
        self, repo_id: str, lower: _Lowering | None = None
    ) -> dict[str, frozenset[str]] | None:
        if lower is not None:
            lower.check()
        paths = self._paths(repo_id)
        if paths is None:  # too many files: remembered as a graph without edges, so the
            return {}  # next searches do not list the repository again
        paths = [p for p in paths if language_family(p) not in PACKAGE_IS_DIRECTORY]
        # one build's answers look up the same names and read the same modules (build_reads)
        symbols = BuildSymbolViews(self.views)
        resolver = DependentsResolver(symbols, self.resolver.read_text)
        js = resolver.js_modules(repo_id)

        def dependents(path: str) -> list[str]:
            if lower is not None:
                lower.check()
            declared = symbols.symbols_of_file(repo_id, path)
            found = resolver.dependents(repo_id, declared, exclude={path}, js=js)
            return [s.path for s in found]

        return build_graph(
            paths, lambda path: resolver.imports(repo_id, path, js), dependents, self._stop
        )

    def _paths(self, repo_id: str) -> list[str] | None:
        paths: list[str] = []
        after: str | None = None
        while True:
            page = self.views.files_under(repo_id, "", after, PAGE)
            paths += [row.path for row in page]
            if len(paths) > MAX_FILES:
                return None
            if len(page) < PAGE:
                return paths
            after = page[-1].path


class _Lowering:
    """Lowers the calling thread's priority to BUILD_NICE once, when first checked at or
    after `due` (a build checks before each file)."""

    def __init__(self, due: float) -> None:
        self.due = due
        self.done = False

    def check(self) -> None:
        if self.done or time.monotonic() < self.due:
            return
        self.done = True
        with contextlib.suppress(OSError, AttributeError):  # not Linux: normal priority
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), BUILD_NICE)


async def follow_index_settled(
    settled: Callable[[], Awaitable[bool]],
    graphs: FileGraphs,
    stop: asyncio.Event,
    poll_s: float = SETTLE_POLL_S,
) -> None:
    """Tell `graphs` whether the host's index is complete, every `poll_s` until `stop`: it is
    incomplete after UNSETTLED_LOOKS looks in a row say so (an edit being applied is behind
    the log for a moment, and is no reason to rebuild a graph at once), complete at once."""
    looks = 0
    while not stop.is_set():
        try:
            complete = await settled()
        except Exception:  # the views closing under the look: ask again
            log.debug("file graphs: the index's state is unknown", exc_info=True)
        else:
            looks = 0 if complete else looks + 1
            graphs.index_settled(looks < UNSETTLED_LOOKS)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), poll_s)
