"""A search reader process: ranks searches for the process that owns the data directory.

`python -m query_api.server.search_reader VIEWS_PATH` opens the views read-only (WAL lets it
read while the owner writes) with its own in-memory postings and caches, then answers
requests from stdin on stdout, one at a time, in frames: a 4-byte big-endian length, then a
pickle (both ends are this build's own processes, started by the owner over its own pipes;
the answers are pydantic models that pickle as they are, where JSON would validate every
hit again in the owner).
A request is (args, details, caller, the owner's views generation, seconds left of the call,
the owner's word on whether the index is complete: query_api/retrieval/file_graph.py); the
answer is ("ok", Ranked) or ("error", exception). It runs `rank_search`, the function the
owner runs in process, so both answer the same. It never writes: the owner keeps the log,
the views' writer and everything else; this process exits when stdin closes.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import sqlite3
import struct
import sys
from pathlib import Path
from typing import Any, BinaryIO

from query_api.access.read_scope import reading_as
from query_api.core.search_ranking import rank_search
from query_api.errors import ServiceUnavailable
from query_api.retrieval.hit_details import HitLocator
from query_api.retrieval.readiness import Readiness
from schemas import tools as t
from streams.errors import StoreError
from streams.stores.read_budget import read_budget
from streams.stores.views.fields import CONTENT_FIELDS, SYMBOL_FIELDS
from streams.stores.views.handlers import default_registry
from streams.stores.views.schema import SCHEMA_VERSION, open_connection, terms_fingerprint
from streams.stores.views.store import ViewStore

log = logging.getLogger("repocontext.search_reader")
HEADER = struct.Struct(">I")
MAX_FRAME = 256 << 20  # far above any answer (k <= 100 hits); a larger length is a broken pipe


class BrokenFrame(ServiceUnavailable):
    """The other end wrote something that is not a frame (or died in the middle of one)."""


def frame(payload: bytes) -> bytes:
    return HEADER.pack(len(payload)) + payload


def write_frame(out: BinaryIO, payload: bytes) -> None:
    out.write(frame(payload))
    out.flush()


def read_frame(stream: BinaryIO) -> bytes | None:
    """The next frame's payload, None at the end of the stream (between frames)."""
    head = stream.read(HEADER.size)
    if not head:
        return None
    if len(head) < HEADER.size:
        raise BrokenFrame("the stream ended inside a frame's length")
    (size,) = HEADER.unpack(head)
    if size > MAX_FRAME:
        raise BrokenFrame(f"a frame of {size} bytes")
    payload = stream.read(size)
    if len(payload) < size:
        raise BrokenFrame("the stream ended inside a frame")
    return payload


async def read_frame_async(stream: asyncio.StreamReader) -> bytes:
    """The next frame's payload; BrokenFrame when the stream ends before or inside one."""
    try:
        (size,) = HEADER.unpack(await stream.readexactly(HEADER.size))
        if size > MAX_FRAME:
            raise BrokenFrame(f"a frame of {size} bytes")
        return await stream.readexactly(size)
    except asyncio.IncompleteReadError as exc:
        raise BrokenFrame("the stream ended") from exc


WARM_UP_QUERY = "main"  # any query: the first search of a repository starts its postings build
WARM_UP_S = 1800.0  # the postings of a 100k-file corpus take minutes on a busy machine


class ReadOnlyViews(ViewStore):
    """The views opened to read only: no table created, no file replaced, no write. The
    owner moves `generation` on every write; a reader copies the owner's with each request,
    so its per-file caches (views/file_cache.py) empty when the owner's views change."""

    def _open_schema(self) -> sqlite3.Connection:
        if not Path(self.path).is_file():
            raise StoreError(f"no views at {self.path} (the owner creates them)")
        conn = open_connection(self.path)
        try:
            conn.execute("PRAGMA query_only = ON")
            found = int(conn.execute("PRAGMA user_version").fetchone()[0])
            terms = conn.execute("SELECT value FROM view_meta WHERE name = 'terms'").fetchone()
        except sqlite3.Error as exc:
            conn.close()
            raise StoreError(f"cannot read the views at {self.path}: {exc}") from exc
        if found != SCHEMA_VERSION or terms is None or terms[0] != terms_fingerprint():
            conn.close()
            raise StoreError(
                f"the views at {self.path} are of another build (schema {found}, this one "
                f"{SCHEMA_VERSION}); the owner rebuilds them"
            )
        return conn


class Reader:
    """What one reader process keeps between requests."""

    def __init__(self, views: ViewStore, stretch: int = 0) -> None:
        from query_api.retrieval.vector_plane import keyword_only_retriever

        self.views = views
        self.retriever = keyword_only_retriever(views, Readiness())
        self.retriever.graphs.index_settled(True, stretch)  # readers start on a complete index
        self.locator = HitLocator(views)

    async def answer(self, request: tuple[Any, ...]) -> tuple[str, Any]:
        args, details, caller, generation, seconds, (settled, stretch) = request
        if not isinstance(args, t.SearchArgs) or args.repoId is None:
            return ("error", ValueError("a search reader takes one repository's SearchArgs"))
        self.views.generation = generation
        self.retriever.graphs.index_settled(settled, stretch)
        try:
            with reading_as(caller), read_budget(seconds):
                ranked = await rank_search(self.retriever, self.locator, args.repoId, args, details)
            return ("ok", ranked)
        except Exception as exc:  # said to the owner, which raises it as its own
            return ("error", exc)

    async def warm_up(self) -> None:
        """A search of each repository, then its postings and file graph built: until they
        land, searches score in SQL (the same ranking, but a last digit of a score may differ
        from the postings' sums) and fill no tail, where the owner's answers have both."""
        for repo in self.views.list_repos():
            args = t.SearchArgs(repoId=repo.repo_id, query=WARM_UP_QUERY, k=1)
            try:
                await rank_search(self.retriever, self.locator, repo.repo_id, args, False)
            except Exception:
                log.debug("warm-up search of %s failed", repo.repo_id, exc_info=True)
        for spec in (CONTENT_FIELDS, SYMBOL_FIELDS):
            if not await asyncio.to_thread(self.views.mirror(spec).wait_built, WARM_UP_S):
                log.warning("postings of %s not built within %.0f s", spec.fts, WARM_UP_S)
        for repo in self.views.list_repos():  # a tail is filled from the file graph, once built
            if not await asyncio.to_thread(self.retriever.graphs.wait, repo.repo_id, WARM_UP_S):
                log.warning("no file graph of %s within %.0f s", repo.repo_id, WARM_UP_S)


def _encode(answer: tuple[str, Any]) -> bytes:
    try:
        return pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # an exception that does not pickle: its words do
        failed = RuntimeError(f"{type(answer[1]).__name__}: {answer[1]} ({exc})")
        return pickle.dumps(("error", failed), protocol=pickle.HIGHEST_PROTOCOL)


async def serve(views_path: str, requests: BinaryIO, answers: BinaryIO, stretch: int = 0) -> None:
    views = ReadOnlyViews(views_path, default_registry())
    try:
        reader = Reader(views, stretch)
        await reader.warm_up()
        write_frame(answers, pickle.dumps(("ready", os.getpid())))
        while True:
            frame = await asyncio.to_thread(read_frame, requests)
            if frame is None:
                return
            write_frame(answers, _encode(await reader.answer(pickle.loads(frame))))
    finally:
        views.close()


def main() -> None:
    logging.basicConfig(
        stream=sys.stderr, level=logging.WARNING, format="search reader %(process)d: %(message)s"
    )
    stretch = sys.argv[2] if len(sys.argv) == 3 else "0"
    if len(sys.argv) not in (2, 3) or not stretch.isdigit():
        raise SystemExit("usage: python -m query_api.server.search_reader VIEWS_PATH [STRETCH]")
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the answers' frames
    try:
        asyncio.run(serve(sys.argv[1], requests, answers, int(stretch)))
    except (StoreError, BrokenFrame) as exc:  # no views to read, or the owner's pipe broke
        raise SystemExit(f"search reader: {exc}") from None
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
