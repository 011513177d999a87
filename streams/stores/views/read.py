"""Read side of the views: typed rows and the queries behind ViewStore's read methods.

Callers get frozen dataclasses, never sqlite3 rows, so query_api holds no SQL and a column
added here cannot break a tool handler.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from processors.query_mentions import phrase_query
from processors.tokenizer import tokenize
from schemas.events import RepoRegistration
from streams.stores.views.bm25 import CONTENT_FTS
from streams.stores.views.packing import unpack_text

MAX_PAGE = 10_000  # defensive ceiling for files_under; tools clamp far lower


@dataclass(frozen=True, slots=True)
class RepoRow:
    repo_id: str
    source: str
    root: str | None
    url: str | None
    ref: str | None
    registered_at: float
    last_ingested: float | None  # newest observation time of an applied structure record
    indexed_commit: str | None
    file_count: int
    registration: RepoRegistration


@dataclass(frozen=True, slots=True)
class FileRow:
    repo_id: str
    path: str
    digest: str
    language: str
    size: int
    line_count: int
    mtime_ns: int
    binary: bool
    generated: bool
    vendored: bool
    truncated: bool
    decode_errors: bool
    source_revision: str | None
    ingested_at: float
    indexed_chars: int | None = None  # where search stops, when before the end of the file


@dataclass(frozen=True, slots=True)
class ContentRow:
    repo_id: str
    path: str
    digest: str
    language: str
    body: str
    truncated: bool
    token_count: int | None


FILE_COLUMNS = (
    "repo_id, path, digest, language, size, line_count, mtime_ns, binary, generated, vendored,"
    " truncated, decode_errors, source_revision, ingested_at, indexed_chars"
)
_REPO_SELECT = """SELECT r.*, (SELECT count(*) FROM files f WHERE f.repo_id = r.repo_id)
                  AS file_count FROM repos r"""


def file_row(row: sqlite3.Row | tuple[Any, ...]) -> FileRow:
    """A FileRow from the FILE_COLUMNS of a row, in that order."""
    r = tuple(row)
    return FileRow(
        repo_id=r[0],
        path=r[1],
        digest=r[2],
        language=r[3],
        size=r[4],
        line_count=r[5],
        mtime_ns=r[6],
        binary=bool(r[7]),
        generated=bool(r[8]),
        vendored=bool(r[9]),
        truncated=bool(r[10]),
        decode_errors=bool(r[11]),
        source_revision=r[12],
        ingested_at=r[13],
        indexed_chars=r[14],
    )


def _repo_row(row: sqlite3.Row) -> RepoRow:
    return RepoRow(
        repo_id=row["repo_id"],
        source=row["source"],
        root=row["root"],
        url=row["url"],
        ref=row["ref"],
        registered_at=row["registered_at"],
        last_ingested=row["last_ingested"],
        indexed_commit=row["indexed_commit"],
        file_count=row["file_count"],
        registration=RepoRegistration.model_validate_json(row["registration"]),
    )


def list_repos(conn: sqlite3.Connection) -> list[RepoRow]:
    return [_repo_row(r) for r in conn.execute(f"{_REPO_SELECT} ORDER BY r.repo_id")]


def get_repo(conn: sqlite3.Connection, repo_id: str) -> RepoRow | None:
    row = conn.execute(f"{_REPO_SELECT} WHERE r.repo_id = ?", (repo_id,)).fetchone()
    return None if row is None else _repo_row(row)


@dataclass(frozen=True, slots=True)
class RepoSource:
    source: str  # "workspace" or "git"
    indexed_commit: str | None


def repo_source(conn: sqlite3.Connection, repo_id: str) -> RepoSource | None:
    """What every answer's freshness asks of a repository (registered? from git? at which
    commit?) in one primary-key read: get_repo also counts its files and parses its
    registration, work a search would otherwise do twice."""
    row = conn.execute(
        "SELECT source, indexed_commit FROM repos WHERE repo_id = ?", (repo_id,)
    ).fetchone()
    return None if row is None else RepoSource(row[0], row[1])


def file_count(conn: sqlite3.Connection, repo_id: str) -> int:
    row = conn.execute("SELECT count(*) FROM files WHERE repo_id = ?", (repo_id,)).fetchone()
    return int(row[0])


def cut_file_counts(conn: sqlite3.Connection, repo_id: str) -> tuple[int, int]:
    """(files whose stored body stops before their end, files past whose indexed text
    search stops too)."""
    row = conn.execute(
        "SELECT coalesce(sum(truncated != 0), 0), count(indexed_chars) FROM files"
        " WHERE repo_id = ?",
        (repo_id,),
    ).fetchone()
    return int(row[0]), int(row[1])


def searched_in_part_paths(conn: sqlite3.Connection, repo_id: str, limit: int) -> list[str]:
    """The first `limit` paths (in path order) of the files past whose indexed text search
    stops."""
    rows = conn.execute(
        "SELECT path FROM files WHERE repo_id = ? AND indexed_chars IS NOT NULL"
        " ORDER BY path LIMIT ?",
        (repo_id, limit),
    )
    return [str(r[0]) for r in rows]


def text_file_count(conn: sqlite3.Connection, repo_id: str) -> int:
    """Files that are not binary: each gets a content row once the content view caught up."""
    row = conn.execute(
        "SELECT count(*) FROM files WHERE repo_id = ? AND binary = 0", (repo_id,)
    ).fetchone()
    return int(row[0])


def text_file_sizes(conn: sqlite3.Connection, repo_id: str) -> list[tuple[str, int, bool]]:
    """(path, size in bytes, generated) of every text file: what the vector coverage estimates
    the passages still to come from."""
    rows = conn.execute(
        "SELECT path, size, generated FROM files WHERE repo_id = ? AND binary = 0", (repo_id,)
    )
    return [(str(r[0]), int(r[1]), bool(r[2])) for r in rows]


def text_files_version(conn: sqlite3.Connection, repo_id: str) -> tuple[int, int, float]:
    """Changes whenever a text file is added, removed or rewritten: (count, bytes, newest
    ingestion time), so an estimate over text_file_sizes is made again only then."""
    row = conn.execute(
        "SELECT count(*), total(size), max(ingested_at) FROM files WHERE repo_id = ? "
        "AND binary = 0",
        (repo_id,),
    ).fetchone()
    return int(row[0]), int(row[1]), float(row[2] or 0.0)


def content_count(conn: sqlite3.Connection, repo_id: str) -> int:
    """Files with a text body (binary files have none): what the vector step can cover."""
    row = conn.execute("SELECT count(*) FROM content WHERE repo_id = ?", (repo_id,)).fetchone()
    return int(row[0])


def get_file(conn: sqlite3.Connection, repo_id: str, path: str) -> FileRow | None:
    row = conn.execute(
        f"SELECT {FILE_COLUMNS} FROM files WHERE repo_id = ? AND path = ?", (repo_id, path)
    ).fetchone()
    return None if row is None else file_row(row)


def get_content(conn: sqlite3.Connection, repo_id: str, path: str) -> ContentRow | None:
    row = conn.execute(
        """SELECT repo_id, path, digest, language, body, truncated, token_count
           FROM content WHERE repo_id = ? AND path = ?""",
        (repo_id, path),
    ).fetchone()
    if row is None:
        return None
    return ContentRow(
        row[0], row[1], row[2], row[3], unpack_text(row[4]) or "", bool(row[5]), row[6]
    )


def indexed_terms(conn: sqlite3.Connection, repo_id: str, path: str) -> frozenset[str] | None:
    """The words keyword search indexed of a file's text (past its stored body when the file
    is longer), or None when it has no content row."""
    row = conn.execute(
        "SELECT body_terms_of(body_terms, body) FROM content WHERE repo_id = ? AND path = ?",
        (repo_id, path),
    ).fetchone()
    return None if row is None else frozenset(row[0].split())


def prefix_successor(prefix: str) -> str | None:
    """The smallest string greater than every string starting with `prefix` (None: no bound).

    SQLite compares TEXT by UTF-8 bytes, which orders exactly like code points, so
    `prefix <= path < successor` is an exact, index-friendly prefix test.
    """
    chars = list(prefix)
    while chars:
        code = ord(chars.pop()) + 1
        if code == 0xD800:  # surrogates cannot be encoded; skip past them
            code = 0xE000
        if code <= 0x10FFFF:
            return "".join(chars) + chr(code)
    return None


def files_under(
    conn: sqlite3.Connection, repo_id: str, prefix: str, after: str | None, limit: int
) -> list[FileRow]:
    """Files whose path starts with `prefix`, ascending, strictly after `after`, at most `limit`."""
    sql = f"SELECT {FILE_COLUMNS} FROM files WHERE repo_id = ? AND path >= ?"
    params: list[Any] = [repo_id, prefix]
    upper = prefix_successor(prefix)
    if upper is not None:
        sql += " AND path < ?"
        params.append(upper)
    if after is not None:
        sql += " AND path > ?"
        params.append(after)
    sql += " ORDER BY path LIMIT ?"
    params.append(max(1, min(limit, MAX_PAGE)))
    return [file_row(r) for r in conn.execute(sql, params)]


_PATHS_MATCHING_SQL = """
SELECT c.path FROM content_fts CROSS JOIN content c ON c.id = content_fts.rowid
WHERE content_fts MATCH ?1 AND c.repo_id = ?2
LIMIT ?3
"""


def paths_matching(conn: sqlite3.Connection, repo_id: str, match: str, limit: int) -> list[str]:
    """The paths of at most `limit` files an FTS5 MATCH expression over the content index
    selects (`processors.query_mentions.phrase_query` writes one), in no particular order."""
    return [str(path) for (path,) in conn.execute(_PATHS_MATCHING_SQL, (match, repo_id, limit))]


def files_in_folder_named(
    conn: sqlite3.Connection, repo_id: str, folder: str, limit: int
) -> list[str]:
    """Indexed paths below a folder named `folder` (any depth, compared case-insensitively),
    sorted: files_with_path_words, then the exact check."""
    wanted = folder.casefold()
    return [
        path
        for path in files_with_path_words(conn, repo_id, folder, limit)
        if wanted in (part.casefold() for part in path.split("/")[:-1])
    ]


def files_with_path_words(
    conn: sqlite3.Connection, repo_id: str, name: str, limit: int
) -> list[str]:
    """Indexed paths whose path holds the words of `name` (a folder's, or a file's stem:
    `create` -> test/create.ts, test_create.py), sorted: one FTS5 phrase read of the path
    column, at most `limit` paths; the caller checks which is named so."""
    words = tuple(tokenize(name))
    if not words:
        return []
    return sorted(paths_matching(conn, repo_id, phrase_query(words, "path_terms"), limit))


def terms_extending(conn: sqlite3.Connection, word: str, limit: int) -> list[str]:
    """The indexed content terms `word` begins and that are longer (`deprecate` ->
    `deprecated`), in the most documents first (over every repository: a caller searching
    one sees what it holds)."""
    end = prefix_successor(word)
    if end is None:
        return []
    rows = conn.execute(
        f"SELECT term FROM {CONTENT_FTS.vocab} WHERE term > ? AND term < ?"
        " ORDER BY doc DESC, term LIMIT ?",
        (word, end, limit),
    )
    return [str(term) for (term,) in rows]
