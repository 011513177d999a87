"""Qdrant's own engine (qdrant-edge) behind the test Qdrant facade (tests/qdrant_server.py).

Each collection is one qdrant-edge shard under `<root>/<name>/shard`, with what the REST API
reports of its configuration (vector size and distance, HNSW and optimizer settings) in
`<root>/<name>/collection.json`, so a restarted facade finds its collections as a restarted
server does. Requests arrive as qdrant-client's REST models and are translated to the
engine's: payload indexes are real, search uses the HNSW graph once a segment is indexed, and
`indexed_vectors_count` is the engine's. As on a server, indexing is the optimizer's job in the
background: `optimize_pending()` (called by the facade a moment after writes) runs the
engine's optimizer on collections written since, which builds HNSW for segments larger than
the indexing threshold (Qdrant's `indexing_threshold_kb`, 10,000 KB by default; tests lower it).
A collection big enough to get a graph is built on a copy, off the facade's lock and in a child
process, while the live shard keeps answering (tests/qdrant_edge_build.py).

Outside the subset our adapter uses (unnamed dense vectors; match value/any, has-id and nested
filters; nearest queries) a request is refused with a ValueError (the facade's 400) naming
what is not supported, never silently answered differently.
"""

from __future__ import annotations

import json
import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import qdrant_edge as q
from qdrant_client.http import models as m

from tests import qdrant_edge_build as builds
from tests.qdrant_edge_build import IndexBuild

DEFAULT_INDEXING_THRESHOLD_KB = 10_000  # Qdrant's storage.optimizers.indexing_threshold_kb
DEFAULT_HNSW = {"m": 16, "ef_construct": 100, "full_scan_threshold": 10_000}  # Qdrant's
DISTANCES = {
    m.Distance.COSINE: q.Distance.Cosine,
    m.Distance.DOT: q.Distance.Dot,
    m.Distance.EUCLID: q.Distance.Euclid,
    m.Distance.MANHATTAN: q.Distance.Manhattan,
}
SCHEMAS = {
    m.PayloadSchemaType.KEYWORD: q.PayloadSchemaType.Keyword,
    m.PayloadSchemaType.INTEGER: q.PayloadSchemaType.Integer,
    m.PayloadSchemaType.FLOAT: q.PayloadSchemaType.Float,
    m.PayloadSchemaType.BOOL: q.PayloadSchemaType.Bool,
    m.PayloadSchemaType.UUID: q.PayloadSchemaType.Uuid,
    m.PayloadSchemaType.TEXT: q.PayloadSchemaType.Text,
}


def unsupported(what: str) -> ValueError:
    return ValueError(f"the test facade does not support {what}")


def edge_id(point: m.ExtendedPointId) -> int | uuid.UUID:
    return point if isinstance(point, int) else uuid.UUID(str(point))


def rest_id(point: Any) -> m.ExtendedPointId:
    return point if isinstance(point, int) else str(point)


def edge_filter(flt: m.Filter | None) -> Any:
    """qdrant-client's Filter as the engine's (nested filters included)."""
    if flt is None:
        return None
    if flt.min_should is not None:
        raise unsupported("min_should")

    def conditions(items: Any) -> list[Any] | None:
        if items is None:
            return None
        return [edge_condition(c) for c in (items if isinstance(items, list) else [items])]

    return q.Filter(
        must=conditions(flt.must), should=conditions(flt.should), must_not=conditions(flt.must_not)
    )


def edge_condition(cond: Any) -> Any:
    if isinstance(cond, m.Filter):
        return edge_filter(cond)
    if isinstance(cond, m.HasIdCondition):
        return q.HasIdCondition({edge_id(i) for i in cond.has_id})
    if isinstance(cond, m.FieldCondition) and cond.match is not None:
        match = cond.match
        if isinstance(match, m.MatchValue):
            return q.FieldCondition(key=cond.key, match=q.MatchValue(match.value))
        if isinstance(match, m.MatchAny):
            values: Any = list(match.any)
            return q.FieldCondition(key=cond.key, match=q.MatchAny(values))
        raise unsupported(f"the match {type(match).__name__}")
    raise unsupported(f"the condition {type(cond).__name__}")


def selected_payload(payload: dict[str, Any] | None, selector: Any) -> dict[str, Any] | None:
    """`with_payload`: a bool, or a list of the keys to return."""
    if selector is None or selector is False:
        return None
    if selector is True:
        return dict(payload or {})
    if isinstance(selector, list):
        return {k: v for k, v in (payload or {}).items() if k in selector}
    raise unsupported(f"with_payload={selector!r}")


def wants_vector(selector: Any) -> bool:
    if isinstance(selector, bool) or selector is None:
        return bool(selector)
    raise unsupported(f"with_vector={selector!r} (named vectors)")


@dataclass
class Collection:
    shard: Any
    config: dict[str, Any]  # collection.json: size, distance, hnsw, indexing_threshold_kb, ...
    written: bool = False  # written since the optimizer last ran
    build: IndexBuild | None = None  # a build of a copy in progress, journaling the updates


class EdgeCollections:
    """Every collection of one facade; callers serialise calls (the facade's lock)."""

    def __init__(
        self,
        root: Path,
        *,
        indexing_threshold_kb: int = DEFAULT_INDEXING_THRESHOLD_KB,
        full_scan_threshold_kb: int | None = None,
    ) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.indexing_threshold_kb = indexing_threshold_kb
        self.hnsw = dict(DEFAULT_HNSW)
        if full_scan_threshold_kb is not None:
            self.hnsw["full_scan_threshold"] = full_scan_threshold_kb
        self.collections: dict[str, Collection] = {}
        for path in sorted(self.root.iterdir()):
            if not (path / "collection.json").exists():
                continue
            config = json.loads((path / "collection.json").read_text())
            folder = builds.current_folder(path, config)
            if folder.is_dir():
                shard = q.EdgeShard.load(str(folder))
                self.collections[path.name] = Collection(shard, config, written=True)

    # -- collections --------------------------------------------------------------------------

    def exists(self, name: str) -> bool:
        return name in self.collections

    def get(self, name: str) -> Collection:
        return self.collections[name]

    def create(self, name: str, req: m.CreateCollection) -> bool:
        vectors = req.vectors
        if not isinstance(vectors, m.VectorParams):
            raise unsupported("named or missing vectors (only one unnamed dense vector)")
        if req.sparse_vectors:
            raise unsupported("sparse vectors")
        hnsw = dict(self.hnsw)
        if req.hnsw_config is not None:
            hnsw.update(req.hnsw_config.model_dump(exclude_none=True, include=set(DEFAULT_HNSW)))
        threshold = self.indexing_threshold_kb
        if req.optimizers_config is not None and req.optimizers_config.indexing_threshold:
            threshold = req.optimizers_config.indexing_threshold
        config = {
            "size": vectors.size,
            "distance": vectors.distance.value,
            "hnsw": hnsw,
            "indexing_threshold_kb": threshold,
            "metadata": req.metadata,
        }
        folder = self.root / name
        folder.mkdir()
        shard = q.EdgeShard.create(
            str(builds.shard_folder(folder, config)),
            q.EdgeConfig(
                vectors=q.EdgeVectorParams(size=vectors.size, distance=DISTANCES[vectors.distance]),
                hnsw_config=q.HnswIndexConfig(
                    m=hnsw["m"],
                    ef_construct=hnsw["ef_construct"],
                    full_scan_threshold=hnsw["full_scan_threshold"],
                    max_indexing_threads=1,
                ),
                optimizers=q.EdgeOptimizersConfig(indexing_threshold=threshold),
            ),
        )
        (folder / "collection.json").write_text(json.dumps(config))
        self.collections[name] = Collection(shard, config)
        return True

    def drop(self, name: str) -> bool:
        found = self.collections.pop(name, None)
        if found is None:
            return False
        found.shard.close()
        shutil.rmtree(self.root / name)
        return True

    def info(self, name: str) -> m.CollectionInfo:
        c = self.collections[name]
        info = c.shard.info()
        schema = {
            key: m.PayloadIndexInfo(
                data_type=m.PayloadSchemaType(str(index.data_type).rsplit(".", 1)[-1].lower()),
                points=int(index.points),
            )
            for key, index in (info.payload_schema or {}).items()
        }
        config = c.config
        return m.CollectionInfo(
            status=(
                m.CollectionStatus.YELLOW  # as on a server while its optimizer has work
                if c.written or c.build is not None
                else m.CollectionStatus.GREEN
            ),
            optimizer_status=m.OptimizersStatusOneOf.OK,
            indexed_vectors_count=int(info.indexed_vectors_count),
            points_count=int(info.points_count),
            segments_count=int(info.segments_count),
            config=m.CollectionConfig(
                params=m.CollectionParams(
                    vectors=m.VectorParams(
                        size=config["size"], distance=m.Distance(config["distance"])
                    )
                ),
                hnsw_config=m.HnswConfig(**config["hnsw"]),
                optimizer_config=m.OptimizersConfig(
                    default_segment_number=0,
                    indexing_threshold=config["indexing_threshold_kb"],
                    flush_interval_sec=5,
                ),
                metadata=config.get("metadata"),
            ),
            payload_schema=schema,
        )

    def create_index(self, name: str, req: m.CreateFieldIndex) -> m.UpdateResult:
        schema = req.field_schema
        if not isinstance(schema, m.PayloadSchemaType) or schema not in SCHEMAS:
            raise unsupported(f"the index schema {schema!r}")
        op = q.UpdateOperation.create_field_index(req.field_name, SCHEMAS[schema])
        return self._update(name, op, written=False)

    # -- points -------------------------------------------------------------------------------

    def upsert(self, name: str, req: m.PointsList | m.PointsBatch) -> m.UpdateResult:
        if req.update_filter is not None:
            raise unsupported("update_filter")
        if isinstance(req, m.PointsBatch):
            batch = req.batch
            if not isinstance(batch.vectors, list):
                raise unsupported("named vectors")
            payloads: list[Any] = list(batch.payloads or [{}] * len(batch.ids))
            rows: list[tuple[Any, Any, Any]] = list(
                zip(batch.ids, batch.vectors, payloads, strict=True)
            )
        else:
            rows = [(p.id, p.vector, p.payload) for p in req.points]
        points = []
        for point_id, vector, payload in rows:
            if not isinstance(vector, list) or not all(isinstance(x, int | float) for x in vector):
                raise unsupported("a vector other than one unnamed dense vector")
            points.append(q.Point(edge_id(point_id), [float(x) for x in vector], payload or {}))
        return self._update(name, q.UpdateOperation.upsert_points(points))

    def retrieve(self, name: str, req: m.PointRequest) -> list[m.Record]:
        if req.shard_key is not None:
            raise unsupported("shard keys")
        with_payload = True if req.with_payload is None else req.with_payload
        with_vector = wants_vector(req.with_vector)
        found = self.collections[name].shard.retrieve(
            [edge_id(i) for i in req.ids], with_payload is not False, with_vector
        )
        return [
            m.Record(
                id=rest_id(r.id),
                payload=selected_payload(r.payload, with_payload),
                vector=list(r.vector) if with_vector and r.vector is not None else None,
            )
            for r in found
        ]

    def delete(self, name: str, selector: m.PointIdsList | m.FilterSelector) -> m.UpdateResult:
        if isinstance(selector, m.PointIdsList):
            op = q.UpdateOperation.delete_points([edge_id(i) for i in selector.points])
        else:
            op = q.UpdateOperation.delete_points_by_filter(edge_filter(selector.filter))
        return self._update(name, op)

    def query(self, name: str, req: m.QueryRequest) -> m.QueryResponse:
        if req.prefetch or req.lookup_from or req.using:
            raise unsupported("prefetch, lookup_from and named vectors")
        vector: Any = req.query.nearest if isinstance(req.query, m.NearestQuery) else req.query
        if not isinstance(vector, list) or not all(isinstance(x, int | float) for x in vector):
            raise unsupported(f"the query {type(req.query).__name__} (only a nearest vector)")
        with_payload = False if req.with_payload is None else req.with_payload
        with_vector = wants_vector(req.with_vector)
        params = None
        if req.params is not None:
            params = q.SearchParams(
                hnsw_ef=req.params.hnsw_ef,
                exact=bool(req.params.exact),
                indexed_only=bool(req.params.indexed_only),
            )
        request = q.QueryRequest(
            limit=10 if req.limit is None else req.limit,
            offset=req.offset,
            query=q.Query.Nearest([float(x) for x in vector]),
            filter=edge_filter(req.filter),
            with_payload=with_payload is not False,
            with_vector=with_vector,
            score_threshold=req.score_threshold,
            params=params,
        )
        found = self.collections[name].shard.query(request)
        return m.QueryResponse(
            points=[
                m.ScoredPoint(
                    id=rest_id(p.id),
                    version=int(p.version or 0),
                    score=float(p.score),
                    payload=selected_payload(p.payload, with_payload),
                    vector=list(p.vector) if with_vector and p.vector is not None else None,
                )
                for p in found
            ]
        )

    def count(self, name: str, req: m.CountRequest) -> m.CountResult:
        request = q.CountRequest(exact=req.exact is not False, filter=edge_filter(req.filter))
        return m.CountResult(count=int(self.collections[name].shard.count(request)))

    def _update(self, name: str, op: Any, *, written: bool = True) -> m.UpdateResult:
        c = self.collections[name]
        c.shard.update(op)
        if c.build is not None:
            c.build.journal.append(op)
        c.written = c.written or written
        return m.UpdateResult(operation_id=0, status=m.UpdateStatus.COMPLETED)

    # -- the background optimizer and shutdown ------------------------------------------------

    def pending(self) -> bool:
        return any(c.written for c in self.collections.values())

    def optimize_pending(self) -> list[IndexBuild]:
        """The engine's optimizer (HNSW above the indexing threshold) for every collection
        written since its last run and not being built: one too small to reach the threshold
        even as a single segment is optimized here (merges, no graph); for the others a copy
        is returned, to be built off the lock (`qdrant_edge_build.run_build`) and handed to
        `finish`. Under the caller's lock."""
        started = []
        for name, c in self.collections.items():
            if not c.written or c.build is not None:
                continue
            c.written = False
            if not self._may_get_a_graph(c):
                c.shard.optimize()
                c.shard.flush()
                continue
            c.build = builds.begin(name, c, self.root / name)
            started.append(c.build)
        return started

    def _may_get_a_graph(self, c: Collection) -> bool:
        """Whether the collection's vectors, all in one segment, would pass the threshold."""
        vector_bytes = int(c.shard.info().points_count) * int(c.config["size"]) * 4
        return vector_bytes >= int(c.config["indexing_threshold_kb"]) * 1024

    def finish(self, build: IndexBuild, built: Any) -> tuple[Any, Path]:
        """Serve the built shard (`builds.open_built`; None when the build failed), the rest
        of the journal applied, unless its collection was dropped meanwhile. Returns what to
        `builds.retire` off the lock: the shard no longer served and its folder. Under the
        caller's lock."""
        c: Collection = build.collection
        if self.collections.get(build.name) is not c:
            return built, build.folder
        c.build = None
        if built is None:
            return None, build.folder
        replaced = builds.serve(build, built, self.root / build.name)
        (old,) = [f for f in builds.SHARD_FOLDERS if f != build.folder.name]
        return replaced, self.root / build.name / old

    def close(self) -> None:
        for c in self.collections.values():
            if c.build is not None:
                builds.retire(None, c.build.folder)
            c.shard.flush()
            c.shard.close()
        self.collections.clear()
