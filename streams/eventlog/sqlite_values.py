"""How the SQLite event log stores a record's value: as appended, zlib-packed, or spliced.

A log holds most bodies twice: `files.v1` carries a file's body and `content.v1` the same body
again (the first MAX_BODY_CHARS characters, which is the whole of most files) next to its
terms. A spliced value keeps each long JSON string literal (BLOB_MIN_BYTES or more) once, in
the content-addressed `blobs` table, and the rest of the value (the frame) in `records`:
- The literal's bytes are cut out of the value as appended and put back at the same place on
  read; nothing is parsed or re-encoded, so any value reads back byte for byte (a value is
  spliced only when putting it back together gives the appended bytes: `split_value`).
- `records.blob_ids` lists the distinct blobs a record uses (JSON, in frame order); `blobs.refs`
  counts the records naming a blob, and the AFTER DELETE trigger on `records` releases them, so
  compaction, retention and any other delete free a blob when its last record goes.
- A frame is a header of (position, blob index) pairs, then the value without its literals,
  zlib-packed; a blob is zlib-packed when that makes it smaller.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import struct
import zlib
from dataclasses import dataclass

from streams.errors import EventLogError

# Values of at least this many bytes are stored zlib-compressed when that makes them smaller:
# file bodies and their derived records are most of a log and compress ~4x (JSON of source
# code); a structure record (~450 bytes of JSON) still packs ~1.5x, and below this the zlib
# header eats the gain.
PACK_MIN_BYTES = 128
PACK_LEVEL = 6
ZLIB = 1
SPLICED = 2
# A JSON string literal this long is kept once in `blobs`: a file body (the same bytes in
# files.v1 and content.v1); a shorter one costs more as a row of its own than it saves.
BLOB_MIN_BYTES = 1024

BLOBS_DDL = (
    """CREATE TABLE IF NOT EXISTS blobs(id INTEGER PRIMARY KEY, digest BLOB NOT NULL UNIQUE,
      refs INTEGER NOT NULL, packed INTEGER, value BLOB NOT NULL)""",
    """CREATE TRIGGER IF NOT EXISTS records_release_blobs AFTER DELETE ON records
      WHEN old.blob_ids IS NOT NULL BEGIN
      UPDATE blobs SET refs = refs - 1 WHERE id IN (SELECT value FROM json_each(old.blob_ids));
      DELETE FROM blobs WHERE refs <= 0 AND id IN (SELECT value FROM json_each(old.blob_ids));
    END""",
)

# a JSON string literal, quotes included (linear: no nested repetition can backtrack)
_LITERAL = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_HEADER = struct.Struct("<I")


@dataclass(frozen=True, slots=True)
class Blob:
    digest: bytes
    packing: int | None
    stored: bytes


@dataclass(frozen=True, slots=True)
class StoredValue:
    """What `records` holds for one appended value, before its blobs have ids."""

    packing: int | None
    stored: bytes | None
    blobs: tuple[Blob, ...] = ()


def _packed(data: bytes) -> tuple[int | None, bytes]:
    packed = zlib.compress(data, PACK_LEVEL)
    return (ZLIB, packed) if len(packed) < len(data) else (None, data)


def _unpacked(packing: int | None, stored: bytes) -> bytes:
    if packing is None:
        return stored
    if packing == ZLIB:
        return zlib.decompress(stored)
    raise EventLogError(f"a record is stored with an unknown packing {packing}: a newer writer?")


def split_value(value: bytes | None) -> StoredValue:
    """How an appended value is stored: spliced when it holds long string literals, else packed
    (or as it is when packing would not make it smaller)."""
    if value is None or len(value) < PACK_MIN_BYTES:
        return StoredValue(None, value)
    spans = (
        [m.span() for m in _LITERAL.finditer(value) if m.end() - m.start() >= BLOB_MIN_BYTES]
        if len(value) >= BLOB_MIN_BYTES
        else []
    )
    if not spans:
        return StoredValue(*_packed(value))
    digests: dict[bytes, int] = {}  # digest -> index in the record's blob list
    blobs: list[Blob] = []
    rest, marks, literals, last = bytearray(), [], [], 0
    for start, end in spans:
        literal = value[start:end]
        digest = hashlib.blake2b(literal, digest_size=16).digest()
        if digest not in digests:
            digests[digest] = len(blobs)
            blobs.append(Blob(digest, *_packed(literal)))
        rest += value[last:start]
        marks.append((len(rest), digests[digest]))
        literals.append(literal)
        last = end
    rest += value[last:]
    if _joined(bytes(rest), marks, literals) != value:  # cannot happen; never store a loss
        return StoredValue(*_packed(value))
    header = _HEADER.pack(len(marks)) + b"".join(
        _HEADER.pack(p) + _HEADER.pack(k) for p, k in marks
    )
    return StoredValue(SPLICED, header + zlib.compress(bytes(rest), PACK_LEVEL), tuple(blobs))


def _joined(rest: bytes, marks: list[tuple[int, int]], literals: list[bytes]) -> bytes:
    out, last = bytearray(), 0
    for (position, _), literal in zip(marks, literals, strict=True):
        out += rest[last:position]
        out += literal
        last = position
    out += rest[last:]
    return bytes(out)


def blob_ids(conn: sqlite3.Connection, blobs: tuple[Blob, ...]) -> str | None:
    """The ids of a record's blobs as `records.blob_ids` lists them, each counted once more
    (inserted when new). Inside the caller's write transaction."""
    if not blobs:
        return None
    ids = []
    for blob in blobs:
        found = conn.execute("SELECT id FROM blobs WHERE digest = ?", (blob.digest,)).fetchone()
        if found is None:
            made = conn.execute(
                "INSERT INTO blobs(digest, refs, packed, value) VALUES (?, 1, ?, ?)",
                (blob.digest, blob.packing, blob.stored),
            ).lastrowid
            assert made is not None
            ids.append(int(made))
        else:
            conn.execute("UPDATE blobs SET refs = refs + 1 WHERE id = ?", (found[0],))
            ids.append(int(found[0]))
    return json.dumps(ids, separators=(",", ":"))


def stored_value(
    packing: int | None,
    stored: bytes | None,
    ids: str | None = None,
    conn: sqlite3.Connection | None = None,
) -> bytes | None:
    """The value as appended, from what the records table holds (`conn` reads a spliced
    value's blobs)."""
    if stored is None:
        return None
    if packing != SPLICED:
        return _unpacked(packing, stored)
    if conn is None or ids is None:
        raise EventLogError("a spliced record needs its blobs to be read back")
    (count,) = _HEADER.unpack_from(stored, 0)
    pairs = struct.unpack_from(f"<{2 * count}I", stored, _HEADER.size)
    rest = zlib.decompress(stored[_HEADER.size * (1 + 2 * count) :])
    blob_of = json.loads(ids)
    literals = [_blob(conn, int(blob_of[k])) for k in pairs[1::2]]
    return _joined(rest, list(zip(pairs[0::2], pairs[1::2], strict=True)), literals)


def _blob(conn: sqlite3.Connection, blob_id: int) -> bytes:
    row = conn.execute("SELECT packed, value FROM blobs WHERE id = ?", (blob_id,)).fetchone()
    if row is None:
        raise EventLogError(f"the log's blob {blob_id} is missing: the file was changed by hand?")
    return _unpacked(row[0], bytes(row[1]))
