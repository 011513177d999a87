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
A topic's values (and frames) are packed with a preset zlib dictionary once the topic has one
(`dictionaries`, made from the first DICT_SAMPLES values this writer saw of the topic and never
deleted): most values are a few hundred bytes to a few KiB of JSON whose field names and
common prefixes zlib otherwise learns again in every record. The value names its dictionary by
id and zlib checks the dictionary's checksum on read, so a value reads back exactly or not at
all. The long literals have one dictionary of their own (BLOBS), made from the first ones
stored: source bodies of a few KiB share their language's keywords and the repository's names.
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
ZLIB_DICT = 3  # dictionary id (_HEADER), then zlib with that preset dictionary
SPLICED_DICT = 4  # dictionary id (_HEADER), then a frame whose rest is packed with it
# A JSON string literal this long is kept once in `blobs`: a file body (the same bytes in
# files.v1 and content.v1); a shorter one costs more as a row of its own than it saves.
BLOB_MIN_BYTES = 1024

BLOBS_DDL = (
    """CREATE TABLE IF NOT EXISTS blobs(id INTEGER PRIMARY KEY, digest BLOB NOT NULL UNIQUE,
      refs INTEGER NOT NULL, packed INTEGER, value BLOB NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS dictionaries(id INTEGER PRIMARY KEY, topic TEXT NOT NULL,
      value BLOB NOT NULL)""",
    """CREATE TRIGGER IF NOT EXISTS records_release_blobs AFTER DELETE ON records
      WHEN old.blob_ids IS NOT NULL BEGIN
      UPDATE blobs SET refs = refs - 1 WHERE id IN (SELECT value FROM json_each(old.blob_ids));
      DELETE FROM blobs WHERE refs <= 0 AND id IN (SELECT value FROM json_each(old.blob_ids));
    END""",
)

# A topic's dictionary: the first DICT_PREFIX bytes of DICT_SAMPLES of its values (frames for
# spliced ones) in arrival order, at most zlib's 32 KiB window.
DICT_SAMPLES = 64
DICT_PREFIX = 512
BLOBS = "(blobs)"  # the dictionary of the long literals (`blobs`), whichever topic they came from

# a JSON string literal, quotes included (linear: no nested repetition can backtrack)
_LITERAL = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_HEADER = struct.Struct("<I")


@dataclass(frozen=True, slots=True)
class Blob:
    digest: bytes
    packing: int | None
    stored: bytes
    sample: bytes = b""


class Dictionary:
    """A topic's dictionary and a compressor primed with it: copying the primed state costs
    what packing without a dictionary costs, loading the dictionary again twice that."""

    def __init__(self, id_: int, data: bytes) -> None:
        self.id = id_
        self.data = data
        self._primed = zlib.compressobj(PACK_LEVEL, zdict=data)

    def pack(self, data: bytes) -> bytes:
        packer = self._primed.copy()
        return _HEADER.pack(self.id) + packer.compress(data) + packer.flush()


@dataclass(frozen=True, slots=True)
class StoredValue:
    """What `records` holds for one appended value, before its blobs have ids. `sample` is
    what the value would give its topic's dictionary."""

    packing: int | None
    stored: bytes | None
    blobs: tuple[Blob, ...] = ()
    sample: bytes = b""


def _packed(data: bytes) -> tuple[int | None, bytes]:
    packed = zlib.compress(data, PACK_LEVEL)
    return (ZLIB, packed) if len(packed) < len(data) else (None, data)


def _value_packed(data: bytes, dictionary: Dictionary | None) -> StoredValue:
    """Packed with the topic's dictionary once it has one (never worse than plain zlib by more
    than its id, so plain zlib is not tried too: compressing twice was most of a cold index's
    event-log CPU), else plain; as it is when packing would not make it smaller."""
    if dictionary is None:
        packing, stored = _packed(data)
        return StoredValue(packing, stored, sample=data[:DICT_PREFIX])
    with_dict = dictionary.pack(data)
    if len(with_dict) < len(data):
        return StoredValue(ZLIB_DICT, with_dict, sample=data[:DICT_PREFIX])
    return StoredValue(None, data, sample=data[:DICT_PREFIX])


def _unpacked(
    packing: int | None,
    stored: bytes,
    conn: sqlite3.Connection | None = None,
    dictionaries: dict[int, bytes] | None = None,
) -> bytes:
    if packing is None:
        return stored
    if packing == ZLIB:
        return zlib.decompress(stored)
    if packing == ZLIB_DICT:
        (dict_id,) = _HEADER.unpack_from(stored, 0)
        return _inflated(stored[_HEADER.size :], _dictionary(conn, dict_id, dictionaries))
    raise EventLogError(f"a record is stored with an unknown packing {packing}: a newer writer?")


def split_value(
    value: bytes | None,
    dictionary: Dictionary | None = None,
    blob_dictionary: Dictionary | None = None,
) -> StoredValue:
    """How an appended value is stored: spliced when it holds long string literals, else packed
    (or as it is when packing would not make it smaller), with the topic's `dictionary` and
    the blobs' `blob_dictionary` when there are."""
    if value is None or len(value) < PACK_MIN_BYTES:
        return StoredValue(None, value)
    spans = (
        [m.span() for m in _LITERAL.finditer(value) if m.end() - m.start() >= BLOB_MIN_BYTES]
        if len(value) >= BLOB_MIN_BYTES
        else []
    )
    if not spans:
        return _value_packed(value, dictionary)
    digests: dict[bytes, int] = {}  # digest -> index in the record's blob list
    blobs: list[Blob] = []
    rest, marks, literals, last = bytearray(), [], [], 0
    for start, end in spans:
        literal = value[start:end]
        digest = hashlib.blake2b(literal, digest_size=16).digest()
        if digest not in digests:
            digests[digest] = len(blobs)
            packed = _value_packed(literal, blob_dictionary)
            blobs.append(Blob(digest, packed.packing, packed.stored or b"", packed.sample))
        rest += value[last:start]
        marks.append((len(rest), digests[digest]))
        literals.append(literal)
        last = end
    rest += value[last:]
    if _joined(bytes(rest), marks, literals) != value:  # cannot happen; never store a loss
        return _value_packed(value, dictionary)
    header = _HEADER.pack(len(marks)) + b"".join(
        _HEADER.pack(p) + _HEADER.pack(k) for p, k in marks
    )
    sample = bytes(rest[:DICT_PREFIX])
    if dictionary is not None:
        frame = header + dictionary.pack(bytes(rest))[_HEADER.size :]
        return StoredValue(SPLICED_DICT, _HEADER.pack(dictionary.id) + frame, tuple(blobs), sample)
    frame = header + zlib.compress(bytes(rest), PACK_LEVEL)
    return StoredValue(SPLICED, frame, tuple(blobs), sample)


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
    dictionaries: dict[int, bytes] | None = None,
) -> bytes | None:
    """The value as appended, from what the records table holds (`conn` reads a spliced
    value's blobs and a dictionary that `dictionaries`, the caller's cache of them by id,
    does not hold yet)."""
    if stored is None:
        return None
    zdict = b""
    if packing == SPLICED_DICT:
        (dict_id,) = _HEADER.unpack_from(stored, 0)
        zdict, stored = _dictionary(conn, dict_id, dictionaries), stored[_HEADER.size :]
    elif packing != SPLICED:
        return _unpacked(packing, stored, conn, dictionaries)
    if conn is None or ids is None:
        raise EventLogError("a spliced record needs its blobs to be read back")
    (count,) = _HEADER.unpack_from(stored, 0)
    pairs = struct.unpack_from(f"<{2 * count}I", stored, _HEADER.size)
    rest = _inflated(stored[_HEADER.size * (1 + 2 * count) :], zdict)
    blob_of = json.loads(ids)
    literals = [_blob(conn, int(blob_of[k]), dictionaries) for k in pairs[1::2]]
    return _joined(rest, list(zip(pairs[0::2], pairs[1::2], strict=True)), literals)


def _blob(conn: sqlite3.Connection, blob_id: int, dictionaries: dict[int, bytes] | None) -> bytes:
    row = conn.execute("SELECT packed, value FROM blobs WHERE id = ?", (blob_id,)).fetchone()
    if row is None:
        raise EventLogError(f"the log's blob {blob_id} is missing: the file was changed by hand?")
    return _unpacked(row[0], bytes(row[1]), conn, dictionaries)


def _inflated(packed: bytes, zdict: bytes) -> bytes:
    if not zdict:
        return zlib.decompress(packed)
    try:
        unpacker = zlib.decompressobj(zdict=zdict)  # checks the dictionary's Adler-32
        out = unpacker.decompress(packed) + unpacker.flush()
    except zlib.error as exc:
        raise EventLogError(f"a record does not unpack with its dictionary: {exc}") from exc
    if not unpacker.eof:
        raise EventLogError("a record packed with a dictionary is cut short")
    return out


def _dictionary(
    conn: sqlite3.Connection | None, dict_id: int, cache: dict[int, bytes] | None
) -> bytes:
    if cache is not None and dict_id in cache:
        return cache[dict_id]
    row = (
        None
        if conn is None
        else conn.execute("SELECT value FROM dictionaries WHERE id = ?", (dict_id,)).fetchone()
    )
    if row is None:
        raise EventLogError(f"the log's dictionary {dict_id} is missing: the file was changed?")
    if cache is not None:
        cache[dict_id] = bytes(row[0])
    return bytes(row[0])


class TopicDictionaries:
    """The dictionary each topic's new values are packed with, made once a topic has given
    DICT_SAMPLES samples (in this writer; a restart before then starts the samples again,
    and two writers may each make one: a value names the one it used)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.cache: dict[int, bytes] = {}  # id -> data, for reads
        self._by_topic: dict[str, Dictionary] = {}
        self._samples: dict[str, list[bytes]] = {}
        self.unreadable: str | None = None
        try:
            rows = conn.execute("SELECT id, topic, value FROM dictionaries").fetchall()
        except sqlite3.DatabaseError as exc:
            # a damaged file still opens, so that health can name the damage (the integrity
            # check does); meanwhile new values are packed without a dictionary
            self.unreadable, rows = str(exc), []
        for id_, topic, data in rows:
            self._by_topic[str(topic)] = Dictionary(int(id_), bytes(data))  # the newest wins

    def of(self, topic: str) -> Dictionary | None:
        return self._by_topic.get(topic)

    def sample(self, topic: str, value: StoredValue) -> None:
        """Keep `value`'s samples (its own for `topic`, its blobs' for BLOBS) while the
        dictionary they are for is not made."""
        if self.unreadable is not None:
            return
        for name, sample in ((topic, value.sample), *((BLOBS, b.sample) for b in value.blobs)):
            if name not in self._by_topic and sample:
                samples = self._samples.setdefault(name, [])
                if len(samples) < DICT_SAMPLES:
                    samples.append(sample)

    def make_due(self, conn: sqlite3.Connection) -> None:
        """Make the dictionaries that have their samples, each in a transaction of its own
        and used only once committed (a value must never name one the file does not hold)."""
        for topic, samples in list(self._samples.items()):
            if len(samples) < DICT_SAMPLES or topic in self._by_topic:
                continue
            data = b"".join(samples)[-32768:]
            conn.execute("BEGIN IMMEDIATE")
            try:
                made = conn.execute(
                    "INSERT INTO dictionaries(topic, value) VALUES (?, ?)", (topic, data)
                ).lastrowid
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            assert made is not None
            self._by_topic[topic] = Dictionary(int(made), data)
            del self._samples[topic]
