"""Topic handlers of the core views: repos.v1, structure.v1 and content.v1.

Per-file records are replace-per-file, so within one batch only the last record of each key
matters: a handler deletes every key it saw and inserts the survivors, each step one
`executemany`. Identity always comes from the log key (`repoId/path`), the same for upserts
and tombstones, so a tombstone deletes exactly what its upserts wrote.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel

from processors.tokenizer import tokenize
from schemas import topics
from schemas.events import RepoRegistration, split_file_key
from schemas.records import ContentRecord, StructureRecord
from streams.errors import StoreError
from streams.stores.views.bm25 import BM25_VOCAB_DDL
from streams.stores.views.fields import CONTENT_FIELDS, SYMBOL_FIELDS
from streams.stores.views.lexical import changelog_ddl
from streams.stores.views.memory import register_memory_views
from streams.stores.views.packing import body_packer
from streams.stores.views.registry import Item, TopicHandler, ViewRegistry
from streams.stores.views.scan import SCAN_DDL
from streams.stores.views.schema import body_terms, register_core_schema
from streams.stores.views.sources import register_source_views
from streams.stores.views.symbol_tables import register_symbol_views

M = TypeVar("M", bound=BaseModel)


def _require_key(key: str | None, topic: str) -> str:
    if key is None:
        raise StoreError(f"{topic}: a record without a key cannot be applied")
    return key


def _as(model: type[M], value: BaseModel, topic: str) -> M:
    if not isinstance(value, model):
        raise StoreError(f"{topic}: expected {model.__name__}, got {type(value).__name__}")
    return value


def _last_per_file(items: Sequence[Item], topic: str) -> dict[tuple[str, str], BaseModel | None]:
    """The surviving record of every (repoId, path) in this batch (compaction semantics)."""
    last: dict[tuple[str, str], BaseModel | None] = {}
    for key, value in items:
        last[split_file_key(_require_key(key, topic))] = value
    return last


def repos_handler(registry: ViewRegistry) -> TopicHandler:
    """Registration upserts the repos row; a tombstone removes the repository everywhere.

    Removal sweeps every registered tree, including ones registered after this handler (a
    memory tree added by a later module goes with its repository, which is the one time
    memory is deleted).
    """
    topic = topics.REPOS.name

    def apply(conn: sqlite3.Connection, items: Sequence[Item]) -> None:
        for key, value in items:
            repo_id = _require_key(key, topic)
            if value is None:
                registry.delete_repo_rows(conn, repo_id, code_index_only=False)
                conn.execute("DELETE FROM repos WHERE repo_id = ?", (repo_id,))
                continue
            reg = _as(RepoRegistration, value, topic)
            conn.execute(
                """INSERT INTO repos (repo_id, source, root, url, ref, registered_at,
                       last_ingested, indexed_commit, registration)
                   VALUES (?1, ?2, ?3, ?4, ?5, ?6,
                       (SELECT max(ingested_at) FROM files WHERE repo_id = ?1),
                       (SELECT source_revision FROM files WHERE repo_id = ?1
                          AND source_revision IS NOT NULL ORDER BY ingested_at DESC LIMIT 1),
                       ?7)
                   ON CONFLICT (repo_id) DO UPDATE SET source = excluded.source,
                       root = excluded.root, url = excluded.url, ref = excluded.ref,
                       registered_at = excluded.registered_at,
                       registration = excluded.registration""",
                (
                    repo_id,
                    reg.source,
                    reg.root,
                    reg.url,
                    reg.ref,
                    reg.registered_at,
                    reg.model_dump_json(),
                ),
            )

    return apply


def apply_structure(conn: sqlite3.Connection, items: Sequence[Item]) -> None:
    """structure.v1 -> files; also advances the repo marker (lastIngested, indexedCommit).

    The marker is derived from the records themselves (ingested_at is the source's observation
    time), so a replay rebuilds the same marker; files that arrive before their registration
    seed it when the registration lands.
    """
    topic = topics.STRUCTURE.name
    last = _last_per_file(items, topic)
    conn.executemany("DELETE FROM files WHERE repo_id = ? AND path = ?", list(last))
    rows = []
    markers: dict[str, tuple[float, str | None]] = {}
    for (repo_id, path), value in last.items():
        if value is None:
            continue
        rec = _as(StructureRecord, value, topic)
        rows.append(
            (
                repo_id,
                path,
                rec.digest,
                rec.language,
                rec.size,
                rec.line_count,
                rec.mtime_ns,
                rec.binary,
                rec.generated,
                rec.vendored,
                rec.truncated,
                rec.decode_errors,
                rec.source_revision,
                rec.ingested_at,
                rec.indexed_chars,
            )
        )
        seen_at, revision = markers.get(repo_id, (rec.ingested_at, None))
        if rec.ingested_at >= seen_at and rec.source_revision is not None:
            revision = rec.source_revision
        markers[repo_id] = (max(seen_at, rec.ingested_at), revision)
    conn.executemany("INSERT INTO files VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    conn.executemany(
        """UPDATE repos SET last_ingested = max(coalesce(last_ingested, ?1), ?1),
               indexed_commit = coalesce(?2, indexed_commit) WHERE repo_id = ?3""",
        [(seen_at, revision, repo_id) for repo_id, (seen_at, revision) in markers.items()],
    )


def apply_content(conn: sqlite3.Connection, items: Sequence[Item]) -> None:
    """content.v1 -> content + content_fts (the delete trigger drops replaced FTS rows)."""
    topic = topics.CONTENT.name
    last = _last_per_file(items, topic)
    conn.executemany("DELETE FROM content WHERE repo_id = ? AND path = ?", list(last))
    records = {
        key: _as(ContentRecord, value, topic) for key, value in last.items() if value is not None
    }
    pack_body = body_packer(conn, [(rec.language, rec.body) for rec in records.values()])
    rows = []
    terms = []
    for (repo_id, path), rec in records.items():
        # None: the body's own tokens (processors/content.py), kept as NULL (body_terms_of)
        carried = rec.body_terms
        indexed = " ".join(tokenize(rec.body)) if carried is None else carried
        rows.append(
            (
                repo_id,
                path,
                rec.digest,
                rec.language,
                rec.truncated,
                rec.token_count,
                rec.language_terms,  # the processor's terms, as they come
                None if rec.path_terms == " ".join(tokenize(path)) else rec.path_terms,
                None if carried is None else body_terms(rec.body, carried, rec.truncated),
                pack_body(rec.language, rec.body),
            )
        )
        terms.append((rec.language_terms, rec.path_terms, indexed, repo_id, path))
    conn.executemany(
        """INSERT INTO content (repo_id, path, digest, language, truncated, token_count,
               language_terms, path_terms, body_terms, body)
           VALUES (?,?,?,?,?,?,?,?,?,?)""",
        rows,
    )
    conn.executemany(
        """INSERT INTO content_fts (rowid, repo_id, language, path_terms, body_terms)
           SELECT id, repo_id, ?1, ?2, ?3 FROM content WHERE repo_id = ?4 AND path = ?5""",
        terms,
    )


def default_registry() -> ViewRegistry:
    """A registry with the core tables and handlers; later record families add to it."""
    registry = ViewRegistry()
    register_core_schema(registry)
    registry.add_topic(topics.REPOS.name, repos_handler(registry))
    registry.add_topic(topics.STRUCTURE.name, apply_structure)
    registry.add_topic(topics.CONTENT.name, apply_content)
    register_symbol_views(registry)  # symbols.v1 + xrefs.v1 (views/symbol_tables.py)
    register_memory_views(registry)  # memory.v1 + memory.results.v1 (views/memory.py)
    registry.add_schema(*SCAN_DDL)  # scan's Symbols scope in name order (views/scan.py)
    register_source_views(registry)  # sources.v1: git polls (views/sources.py)
    registry.add_schema(*BM25_VOCAB_DDL)  # document counts per term (views/bm25.py)
    # the rows search's in-memory postings must re-read (views/lexical_mirror.py)
    registry.add_schema(*changelog_ddl((CONTENT_FIELDS, SYMBOL_FIELDS)))
    return registry
