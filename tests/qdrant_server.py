"""A stand-in for a Qdrant server in tests: a REST facade over Qdrant's own engine (qdrant-edge).

No Qdrant server binary is available on this machine (and none can be downloaded), so this
small Starlette app speaks the subset of Qdrant's REST API that qdrant-client (1.20) uses for
the calls `QdrantClientVectorStore` makes, and answers them from qdrant-edge, the engine a
Qdrant server runs per shard (tests/qdrant_edge_engine.py): payload indexes, HNSW search once a
segment is indexed, `indexed_vectors_count`, persistence under `--path` (a restarted facade
keeps its collections). As on a server, the HNSW graph is built in the background: shortly
after writes settle the engine's optimizer runs, indexing segments larger than
`--indexing-threshold-kb` (Qdrant's default 10,000 KB: a small test corpus stays exhaustive
unless a test lowers it, as a server's operator can). A build works on a copy of the
collection, off the lock and in a child process, and is swapped in with the writes it missed
(tests/qdrant_edge_build.py), so searches and writes never wait for one. Not covered:
clustering, snapshots, gRPC, and anything outside the subset, which is a 404 (unknown route)
or a 400 naming what is not supported (`DELETE /collections/{name}` is extra: it lets a test
make the server lose a collection). `tests/streams/test_vector_store_contract.py` runs the same
client calls against a real server when `REPOCONTEXT_TEST_QDRANT_URL` names one.

Answers are shaped like Qdrant's: `{"result": ..., "status": "ok", "time": s}`; errors are
`{"status": {"error": ...}, "time": s}` with 404 for a missing collection, 409 for one that
already exists, 400 for an invalid body or a request the engine rejects, and a plain-text 401
without the right `api-key` header when started with one (`/`, `/healthz`, `/livez`,
`/readyz` stay open, as on Qdrant).

Run: `python -m tests.qdrant_server --port N --path DIR [--api-key K] [--indexing-threshold-kb
N]`; it prints one line (`qdrant facade listening on http://127.0.0.1:N`) once the socket
listens. Tests use `QdrantServer`, which runs it as a subprocess.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import httpx
import uvicorn
from pydantic import BaseModel, TypeAdapter, ValidationError
from qdrant_client.http import models as m
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from tests import qdrant_edge_build as builds
from tests.qdrant_edge_build import IndexBuild
from tests.qdrant_edge_engine import DEFAULT_INDEXING_THRESHOLD_KB, EdgeCollections

ROOT = Path(__file__).resolve().parent.parent
# the optimizer runs once writes paused this long, or at the latest this long after a write
OPTIMIZE_IDLE_S, OPTIMIZE_AT_LATEST_S = 0.2, 2.0
OPEN_PATHS = frozenset({"/", "/healthz", "/livez", "/readyz"})  # no api key needed on Qdrant
# The version qdrant-client checks on connect: its own, so the check passes silently.
VERSION = importlib.metadata.version("qdrant-client")

T = TypeVar("T")
Handler = Callable[[str, bytes], Any]


class HttpError(Exception):
    """An error answer: the status and Qdrant's `status.error` text."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


CREATE: TypeAdapter[m.CreateCollection] = TypeAdapter(m.CreateCollection)
INDEX: TypeAdapter[m.CreateFieldIndex] = TypeAdapter(m.CreateFieldIndex)
INSERT: TypeAdapter[m.PointsBatch | m.PointsList] = TypeAdapter(m.PointInsertOperations)
GET: TypeAdapter[m.PointRequest] = TypeAdapter(m.PointRequest)
SELECT: TypeAdapter[m.PointIdsList | m.FilterSelector] = TypeAdapter(m.PointsSelector)
QUERY: TypeAdapter[m.QueryRequest] = TypeAdapter(m.QueryRequest)
COUNT: TypeAdapter[m.CountRequest] = TypeAdapter(m.CountRequest)


def parse(adapter: TypeAdapter[T], body: bytes) -> T:
    """The body as a qdrant-client REST model; an invalid one is a 400, as on Qdrant."""
    try:
        return adapter.validate_json(body or b"{}")
    except ValidationError as exc:
        raise HttpError(400, f"Format error in JSON body: {exc}") from exc


def jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list):
        return [jsonable(v) for v in value]
    return value


class Facade:
    """The REST routes over one engine; every engine call holds one lock (the routes run on
    Starlette's thread pool, the optimizer on a thread of its own), which an HNSW build never
    holds while it builds.

    `build_gate`, when given, is called off the lock with a collection's name and a stage
    while a build is in progress: "building" once the child that builds the copy's index has
    started, before it builds (its pid in `build_pid`), "built" once the copy has its index,
    "opened" once it is open with the writes it missed so far, before it serves. A test holds
    a build there."""

    def __init__(
        self,
        path: Path,
        api_key: str | None = None,
        *,
        indexing_threshold_kb: int = DEFAULT_INDEXING_THRESHOLD_KB,
        full_scan_threshold_kb: int | None = None,
        build_gate: Callable[[str, str], None] | None = None,
    ) -> None:
        self.build_gate = build_gate
        self.build_pid: int | None = None
        self.engine = EdgeCollections(
            path,
            indexing_threshold_kb=indexing_threshold_kb,
            full_scan_threshold_kb=full_scan_threshold_kb,
        )
        self.api_key = api_key
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self._last_call = self._pending_since = time.monotonic()
        self._optimizer = threading.Thread(target=self._optimize, name="optimizer", daemon=True)

    def app(self) -> Starlette:
        c = "/collections/{name}"
        routes = [
            Route("/", self._root, methods=["GET"]),
            *(Route(p, self._health, methods=["GET"]) for p in ("/healthz", "/livez", "/readyz")),
            self._route(c + "/exists", "GET", self._exists, need_collection=False),
            self._route(c, "PUT", self._create, need_collection=False),
            self._route(c, "GET", self._info),
            self._route(c, "DELETE", self._drop, need_collection=False),
            self._route(c + "/index", "PUT", self._index),
            self._route(c + "/points", "PUT", self._upsert),
            self._route(c + "/points", "POST", self._retrieve),
            self._route(c + "/points/delete", "POST", self._delete),
            self._route(c + "/points/query", "POST", self._query),
            self._route(c + "/points/count", "POST", self._count),
        ]
        return Starlette(routes=routes, lifespan=self._lifespan)

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        self._optimizer.start()
        yield
        self.close()  # the engine flushes to its directory

    def close(self) -> None:
        self._stop.set()
        if self._optimizer.is_alive():
            self._optimizer.join()
        with self.lock:
            self.engine.close()

    def _optimize(self) -> None:
        """The server's background optimizer: index what was written, once writes pause."""
        while not self._stop.wait(OPTIMIZE_IDLE_S / 2):
            for build in self._due_builds():
                self._build(build)

    def _due_builds(self) -> list[IndexBuild]:
        with self.lock:
            if not self.engine.pending():
                self._pending_since = time.monotonic()
                return []
            now = time.monotonic()
            if (
                now - self._last_call < OPTIMIZE_IDLE_S
                and now - self._pending_since < OPTIMIZE_AT_LATEST_S
            ):
                return []
            self._pending_since = now
            return self.engine.optimize_pending()

    def _build(self, build: IndexBuild) -> None:
        """Build, open and catch up off the lock; only the swap takes it."""
        failure = builds.run_build(build, self._stop, lambda pid: self._building(build, pid))
        built = None
        if failure is None:
            try:
                self._gate(build.name, "built")
                built = builds.open_built(build)
                self._gate(build.name, "opened")
            except Exception as exc:  # a collection dropped meanwhile, ...
                failure = repr(exc)
        if failure is not None and not self._stop.is_set():
            print(f"HNSW build of {build.name} failed: {failure}", file=sys.stderr, flush=True)
        with self.lock:
            retired, folder = self.engine.finish(build, None if failure else built)
        if failure and built is not None:
            retired = built
        try:
            builds.retire(retired, folder)
        except Exception as exc:  # a dropped collection's files may be gone already
            print(f"retiring a shard of {build.name}: {exc!r}", file=sys.stderr, flush=True)

    def _building(self, build: IndexBuild, pid: int) -> None:
        self.build_pid = pid
        self._gate(build.name, "building")

    def _gate(self, name: str, stage: str) -> None:
        if self.build_gate is not None:
            self.build_gate(name, stage)

    # -- plumbing -----------------------------------------------------------------------------

    def _denied(self, request: Request) -> Response | None:
        if self.api_key is None or request.url.path in OPEN_PATHS:
            return None
        if request.headers.get("api-key") == self.api_key:
            return None
        return PlainTextResponse("Must provide a valid API key", status_code=401)

    def _route(
        self, path: str, method: str, handler: Handler, *, need_collection: bool = True
    ) -> Route:
        async def endpoint(request: Request) -> Response:
            started = time.perf_counter()
            denied = self._denied(request)
            if denied is not None:
                return denied
            name = str(request.path_params["name"])
            body = await request.body()
            try:
                result = await run_in_threadpool(self._locked, handler, name, body, need_collection)
            except HttpError as exc:
                return _error(exc.status, str(exc), started)
            except ValueError as exc:  # the local engine's way of rejecting a request
                return _error(400, f"Bad request: {exc}", started)
            except Exception as exc:
                return _error(500, f"Service internal error: {exc!r}", started)
            elapsed = time.perf_counter() - started
            return JSONResponse({"result": jsonable(result), "status": "ok", "time": elapsed})

        return Route(path, endpoint, methods=[method])

    def _locked(self, handler: Handler, name: str, body: bytes, need_collection: bool) -> Any:
        with self.lock:
            self._last_call = time.monotonic()
            if need_collection and not self.engine.exists(name):
                raise HttpError(404, f"Not found: Collection `{name}` doesn't exist!")
            try:
                return handler(name, body)
            except (HttpError, ValueError):
                raise
            except Exception as exc:  # the engine's rejections (a wrong dimension, ...)
                raise ValueError(f"Wrong input: {exc}") from exc

    async def _root(self, request: Request) -> Response:
        info = {"title": "qdrant - vector search engine (test facade)", "version": VERSION}
        return JSONResponse(info)

    async def _health(self, request: Request) -> Response:
        return PlainTextResponse(f"{request.url.path.strip('/')} check passed")

    # -- the routes -----------------------------------------------------------------------------

    def _exists(self, name: str, body: bytes) -> m.CollectionExistence:
        return m.CollectionExistence(exists=self.engine.exists(name))

    def _create(self, name: str, body: bytes) -> bool:
        req = parse(CREATE, body)
        if self.engine.exists(name):
            raise HttpError(409, f"Wrong input: Collection `{name}` already exists!")
        return self.engine.create(name, req)

    def _drop(self, name: str, body: bytes) -> bool:
        """Not used by the adapter: lets a test make the server lose a collection."""
        return self.engine.drop(name)

    def _info(self, name: str, body: bytes) -> m.CollectionInfo:
        return self.engine.info(name)

    def _index(self, name: str, body: bytes) -> m.UpdateResult:
        return self.engine.create_index(name, parse(INDEX, body))

    def _upsert(self, name: str, body: bytes) -> m.UpdateResult:
        return self.engine.upsert(name, parse(INSERT, body))

    def _retrieve(self, name: str, body: bytes) -> list[m.Record]:
        return self.engine.retrieve(name, parse(GET, body))

    def _delete(self, name: str, body: bytes) -> m.UpdateResult:
        return self.engine.delete(name, parse(SELECT, body))

    def _query(self, name: str, body: bytes) -> m.QueryResponse:
        return self.engine.query(name, parse(QUERY, body))

    def _count(self, name: str, body: bytes) -> m.CountResult:
        return self.engine.count(name, parse(COUNT, body))


def _error(status: int, message: str, started: float) -> Response:
    elapsed = time.perf_counter() - started
    return JSONResponse({"status": {"error": message}, "time": elapsed}, status_code=status)


def serve(
    port: int,
    path: Path,
    api_key: str | None = None,
    host: str = "127.0.0.1",
    *,
    indexing_threshold_kb: int = DEFAULT_INDEXING_THRESHOLD_KB,
    full_scan_threshold_kb: int | None = None,
) -> None:
    """Bind, announce one line, then serve until SIGTERM/SIGINT (uvicorn handles both)."""
    facade = Facade(
        path,
        api_key,
        indexing_threshold_kb=indexing_threshold_kb,
        full_scan_threshold_kb=full_scan_threshold_kb,
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    bound = sock.getsockname()[1]
    print(f"qdrant facade listening on http://{host}:{bound}", flush=True)
    config = uvicorn.Config(facade.app(), log_level="warning", access_log=False, lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--port", type=int, required=True, help="0 picks a free port")
    parser.add_argument("--path", type=Path, required=True, help="the local engine's directory")
    parser.add_argument("--api-key", default=None)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument(
        "--indexing-threshold-kb",
        type=int,
        default=DEFAULT_INDEXING_THRESHOLD_KB,
        help="segments larger than this get an HNSW graph (Qdrant's indexing_threshold_kb)",
    )
    parser.add_argument(
        "--full-scan-threshold-kb",
        type=int,
        default=None,
        help="below this a filtered search scans instead of walking HNSW (Qdrant's default)",
    )
    args = parser.parse_args(argv)
    args.path.mkdir(parents=True, exist_ok=True)
    serve(
        args.port,
        args.path,
        args.api_key,
        args.host,
        indexing_threshold_kb=args.indexing_threshold_kb,
        full_scan_threshold_kb=args.full_scan_threshold_kb,
    )


# -- for tests ---------------------------------------------------------------------------------


class QdrantServer:
    """The facade as a subprocess on a loopback port (a free one unless given), for tests.

    `start()` returns once `GET /` answers; `stop()` terminates it. The data directory
    outlives it, so a restart on the same port and directory keeps the collections.
    """

    def __init__(
        self,
        data_dir: Path,
        api_key: str | None = None,
        *,
        port: int | None = None,
        indexing_threshold_kb: int | None = None,
        full_scan_threshold_kb: int | None = None,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.api_key = api_key
        self.port = port
        self.engine_args: list[str] = []
        if indexing_threshold_kb is not None:
            self.engine_args += ["--indexing-threshold-kb", str(indexing_threshold_kb)]
        if full_scan_threshold_kb is not None:
            self.engine_args += ["--full-scan-threshold-kb", str(full_scan_threshold_kb)]
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = self.data_dir.parent / f"{self.data_dir.name}.facade.log"

    @property
    def url(self) -> str:
        if self.port is None:
            raise RuntimeError("the facade has no port before start()")
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> QdrantServer:
        if self.port is None:
            from tests.conftest import free_port

            self.port = free_port()
        cmd = [sys.executable, "-m", "tests.qdrant_server", "--port", str(self.port)]
        cmd += ["--path", str(self.data_dir)]
        if self.api_key is not None:
            cmd += ["--api-key", self.api_key]
        cmd += self.engine_args
        with open(self.log_path, "ab") as log:
            offset = log.tell()
            self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        announced = f"listening on {self.url}".encode()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"qdrant facade exited: {self._log_tail()}")
            # our own announcement first: whatever else holds the port must not pass for us
            with open(self.log_path, "rb") as log:
                log.seek(offset)
                ours = announced in log.read()
            try:
                if ours and httpx.get(self.url + "/", timeout=1.0).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.stop()
        raise TimeoutError(f"qdrant facade did not answer: {self._log_tail()}")

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def _log_tail(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:]

    def __enter__(self) -> QdrantServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


if __name__ == "__main__":
    main()
