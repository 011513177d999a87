"""A file's declarations as one packed list, found by fully-qualified name and by simple name.

- `symbol_files.decls`: every declaration of the file (fq name, name, kind, lines, digest,
  signature), sorted by start line then fq name, as one JSON list packed like a body
  (schema.pack_text). A file's declarations repeat their package and class in each fq name
  and signature, so the list compresses well, where one row per declaration kept each of
  those strings whole and three indexes repeated the names again.
- `symbol_keys` (repo, fq name, file): the declarations in name order (scan's pages and the
  per-key reads of `repo/{repoId}/symbol/{fqName}`), a WITHOUT ROWID table that is its own
  index. `symbol_names` (repo, name, file): which files declare a simple name.
- `symbols`: a view of one row per declaration for the few SQL readers that join them
  (memory's links to a file's symbols); the reads that matter decode the lists in Python.
A file's keys are found again, to be replaced or deleted, from its own list.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from schemas.symbols import SymbolDef
from streams.stores.views.packing import pack_text, unpack_text

# (fq_name, name, kind, start_line, end_line, digest, signature): SymbolRow's order after its
# repository and path
Decl = tuple[str, str, str, int, int, str, str]

REPO_NUMBER = "(SELECT id FROM repo_numbers WHERE repo_id = ?)"
# A name a committed build declares again (axios' dist/axios.js, dist/node/axios.cjs) reads
# back as the source's: first by path it was the bundle's, whose drift a memory link then
# followed. The join takes the repository id as its parameter, before REPO_NUMBER's.
GENERATED_JOIN = "LEFT JOIN files g ON g.repo_id = ? AND g.path = f.path"
GENERATED_LAST = "coalesce(g.generated, 0)"

DECLS_DDL = (
    """CREATE TABLE IF NOT EXISTS symbol_files (
        id INTEGER PRIMARY KEY,
        repo_id TEXT NOT NULL,
        path TEXT NOT NULL,
        decls NOT NULL,  -- pack_decls
        UNIQUE (repo_id, path)
    )""",
    """CREATE TABLE IF NOT EXISTS symbol_keys (
        repo INTEGER NOT NULL,  -- repo_numbers.id
        fq_name TEXT NOT NULL,
        file INTEGER NOT NULL,  -- symbol_files.id
        PRIMARY KEY (repo, fq_name, file)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS symbol_names (
        repo INTEGER NOT NULL,
        name TEXT NOT NULL,
        file INTEGER NOT NULL,
        PRIMARY KEY (repo, name, file)
    ) WITHOUT ROWID""",
    # names_alike's lookup by a name folded as a query writes it (case, underscores): without
    # it, a scan of every name the repository declares for each query word no file holds
    # (unheld_words.joined_names reads every query so)
    """CREATE INDEX IF NOT EXISTS symbol_names_folded
        ON symbol_names (repo, replace(name, '_', '') COLLATE NOCASE)""",
    """CREATE VIEW IF NOT EXISTS symbols AS
        SELECT f.id AS file, f.repo_id AS repo_id, d.value ->> 0 AS fq_name,
               d.value ->> 1 AS name, d.value ->> 2 AS kind, d.value ->> 3 AS start_line,
               d.value ->> 4 AS end_line, d.value ->> 5 AS digest, d.value ->> 6 AS signature
        FROM symbol_files f CROSS JOIN json_each(unpack_text(f.decls)) d""",
)


def decl_rows(symbols: Iterable[SymbolDef]) -> list[Decl]:
    """A file's declarations as `symbol_files.decls` holds them: one per fq name (the last,
    as a key on (file, fq name) kept them), in declaration order."""
    unique = {s.fq_name: s for s in symbols}
    return sorted(
        (
            (s.fq_name, s.name, s.kind, s.start_line, s.end_line, s.digest, s.signature)
            for s in unique.values()
        ),
        key=lambda r: (r[3], r[0]),
    )


def decls_text(rows: Sequence[Decl]) -> str:
    """The JSON a file's declaration list is packed from (pack_decls)."""
    return json.dumps(rows, ensure_ascii=False, separators=(",", ":"))


def pack_decls(rows: Sequence[Decl]) -> str | bytes:
    return pack_text(decls_text(rows))


def unpack_decls(stored: str | bytes | None) -> list[Decl]:
    rows: list[Any] = json.loads(unpack_text(stored) or "[]")
    return [tuple(r) for r in rows]


def forget_decls(conn: sqlite3.Connection, files: Sequence[tuple[str, str]]) -> None:
    """Delete these files' declarations: their keys and names (from their own lists), then
    their rows."""
    keys: list[tuple[int, str, int]] = []
    names: list[tuple[int, str, int]] = []
    found = conn.execute(
        """SELECT f.id, f.decls, (SELECT id FROM repo_numbers WHERE repo_id = f.repo_id)
           FROM json_each(?) w CROSS JOIN symbol_files f
               ON f.repo_id = w.value ->> 0 AND f.path = w.value ->> 1""",
        (json.dumps(files),),
    )
    for file_id, stored, repo in found:
        decls = unpack_decls(stored)
        keys.extend((repo, d[0], file_id) for d in decls)
        names.extend((repo, name, file_id) for name in {d[1] for d in decls})
    conn.executemany("DELETE FROM symbol_keys WHERE repo = ? AND fq_name = ? AND file = ?", keys)
    conn.executemany("DELETE FROM symbol_names WHERE repo = ? AND name = ? AND file = ?", names)
    conn.executemany("DELETE FROM symbol_files WHERE repo_id = ? AND path = ?", files)


def insert_decls(
    conn: sqlite3.Connection,
    repo: int,
    repo_id: str,
    path: str,
    rows: Sequence[Decl],
    packed: str | bytes | None = None,
) -> tuple[list[tuple[int, str, int]], list[tuple[int, str, int]]]:
    """The file's row (after forget_decls; `rows` from decl_rows, `packed` their list as
    packed, else pack_decls), and the rows of its keys and names for insert_keys (one
    statement each for a whole batch of files)."""
    file_id = conn.execute(
        "INSERT INTO symbol_files (repo_id, path, decls) VALUES (?, ?, ?)",
        (repo_id, path, pack_decls(rows) if packed is None else packed),
    ).lastrowid
    assert file_id is not None
    keys = [(repo, r[0], file_id) for r in rows]
    return keys, [(repo, name, file_id) for name in {r[1] for r in rows}]


def insert_keys(
    conn: sqlite3.Connection, keys: list[tuple[int, str, int]], names: list[tuple[int, str, int]]
) -> None:
    conn.executemany("INSERT INTO symbol_keys VALUES (?, ?, ?)", keys)
    conn.executemany("INSERT INTO symbol_names VALUES (?, ?, ?)", names)


def decls_of_files(
    conn: sqlite3.Connection, repo_id: str, paths: Sequence[str]
) -> dict[str, list[Decl]]:
    """path -> its declarations in declaration order, for the files of `paths` that declare
    any: one read for all of them."""
    rows = conn.execute(
        """SELECT path, decls FROM symbol_files
           WHERE repo_id = ?1 AND path IN (SELECT value FROM json_each(?2))""",
        (repo_id, json.dumps(list(paths))),
    )
    return {str(path): unpack_decls(stored) for path, stored in rows}


def files_declaring(conn: sqlite3.Connection, repo_id: str, name: str) -> list[tuple[int, str]]:
    """(file id, path) of every file declaring the simple name `name`, by path."""
    rows = conn.execute(
        f"""SELECT f.id, f.path FROM symbol_names n CROSS JOIN symbol_files f ON f.id = n.file
            WHERE n.repo = {REPO_NUMBER} AND n.name = ? ORDER BY f.path""",
        (repo_id, name),
    )
    return [(int(file_id), str(path)) for file_id, path in rows]


ALIKE_SQL = f"""SELECT name, count(*) AS files FROM symbol_names
    WHERE repo = {REPO_NUMBER} AND replace(name, '_', '') = ? COLLATE NOCASE
    GROUP BY name ORDER BY files DESC, name"""


def names_alike(
    conn: sqlite3.Connection, repo_id: str, name: str, limit: int
) -> list[tuple[str, int]]:
    """(declared simple name, files declaring it) of the names spelled as `name` but for
    ASCII case (`multidict` -> `MultiDict`) and the underscores between words
    (`splitGraphemes` -> `split_graphemes`: QA on Textualize/rich), most files first: one
    read of the names folded so (symbol_names_folded; its expression is the WHERE clause's,
    word for word, or SQLite scans every name). Leading underscores count: `_split_text` is
    not `split_text`."""
    bare = name.lstrip("_")
    lead = name[: len(name) - len(bare)]
    rows = conn.execute(ALIKE_SQL, (repo_id, bare.replace("_", "")))
    alike = [(str(found), int(files)) for found, files in rows]
    return [(found, files) for found, files in alike if _leading(found) == lead][:limit]


def names_extending(
    conn: sqlite3.Connection, repo_id: str, name: str, longer: int, limit: int
) -> list[tuple[str, str]]:
    """(declared simple name, the first file declaring it, by path) of the names that are
    `name` and at most `longer` more characters (`NOQA_INLINE_REGEX` -> `NOQA_INLINE_REGEXP`),
    shortest first: one range read of the names index."""
    rows = conn.execute(
        f"""SELECT n.name, min(f.path) FROM symbol_names n
              CROSS JOIN symbol_files f ON f.id = n.file
            WHERE n.repo = {REPO_NUMBER} AND n.name > ? AND n.name < ?
              AND length(n.name) <= ?
            GROUP BY n.name ORDER BY length(n.name), n.name LIMIT ?""",
        (repo_id, name, name + "\U0010ffff", len(name) + longer, limit),
    )
    return [(str(found), str(path)) for found, path in rows]


def _leading(name: str) -> str:
    return name[: len(name) - len(name.lstrip("_"))]


def decls_by_name(conn: sqlite3.Connection, file_id: int) -> dict[str, list[Decl]]:
    """One file's declarations by simple name, each name's in (fq name, ...) order: decoded
    once for every name a lookup asks of the file."""
    row = conn.execute("SELECT decls FROM symbol_files WHERE id = ?", (file_id,)).fetchone()
    out: dict[str, list[Decl]] = {}
    for d in sorted(unpack_decls(None if row is None else row[0])):
        out.setdefault(d[1], []).append(d)
    return out


def first_declaration(
    conn: sqlite3.Connection, repo_id: str, fq_name: str
) -> tuple[str, Decl] | None:
    """(path, declaration) of `fq_name` in the first file by path that declares it, a
    generated one (GENERATED_LAST) only when no other does."""
    row = conn.execute(
        f"""SELECT f.path, f.decls FROM symbol_keys k CROSS JOIN symbol_files f ON f.id = k.file
            {GENERATED_JOIN}
            WHERE k.repo = {REPO_NUMBER} AND k.fq_name = ?
            ORDER BY {GENERATED_LAST}, f.path LIMIT 1""",
        (repo_id, repo_id, fq_name),
    ).fetchone()
    if row is None:
        return None
    found = next((d for d in unpack_decls(row[1]) if d[0] == fq_name), None)
    return None if found is None else (str(row[0]), found)
