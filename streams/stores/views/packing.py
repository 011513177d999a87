"""How the views keep long texts: zlib-packed, file bodies with a dictionary of the file's own.

A text of at least PACK_MIN_CHARS characters is kept zlib-compressed (a BLOB; shorter ones stay
TEXT): source and its terms compress ~4x, and both are read back only for the few files an
answer shows or when search's in-memory postings are built.

Bodies are packed with a preset dictionary of their language (`pack_dictionaries`), made once
per views file and language in the sink's first batch with enough bodies of it, from the first
DICT_PREFIX bytes of DICT_SAMPLES of them (as the event log does for its values): most files of
a repository in one language open with the same licence header, imports and declarations,
which zlib otherwise learns again in every file; one dictionary for all of them fits none.
A packed value names its dictionary itself: zlib's header then carries the FDICT flag and the
dictionary's Adler-32 (RFC 1950), and zlib checks the text's own Adler-32 on the way out, so a
body reads back exactly or not at all, and values packed before dictionaries read as before.
Every connection opening a views file (schema.open_connection) registers its dictionaries in
this process, so `unpack_text` needs no connection; a dictionary made after a connection was
opened is looked up again in the files this process opened.
"""

from __future__ import annotations

import sqlite3
import threading
import zlib
from collections.abc import Callable, Sequence

from streams.errors import StoreError

PACK_MIN_CHARS = 256
PACK_LEVEL = 6
DICT_SAMPLES = 64
DICT_PREFIX = 512
DICT_MAX = 32768  # zlib's window: a longer dictionary's head is never used
_FDICT = 0x20  # the FLG bit of a zlib header saying a preset dictionary follows

DICTIONARY_DDL = """CREATE TABLE IF NOT EXISTS pack_dictionaries (
        id INTEGER PRIMARY KEY,
        language TEXT NOT NULL,
        value BLOB NOT NULL
    )"""

_lock = threading.Lock()
_known: dict[int, bytes] = {}  # Adler-32 -> dictionary, of every views file opened here
_files: set[str] = set()

Packer = Callable[[str, str], str | bytes]  # (language, text) -> what the table holds


def pack_text(text: str) -> str | bytes:
    """What a table holds for a long text: the text, or its compressed UTF-8 bytes."""
    if len(text) < PACK_MIN_CHARS:
        return text
    return zlib.compress(text.encode("utf-8", "surrogatepass"), PACK_LEVEL)


def unpack_text(stored: str | bytes | None) -> str | None:
    """The text from what a table holds (TEXT as it is, a BLOB decompressed)."""
    if stored is None or isinstance(stored, str):
        return stored
    if len(stored) > 6 and stored[1] & _FDICT:
        return _inflated(stored).decode("utf-8", "surrogatepass")
    return zlib.decompress(stored).decode("utf-8", "surrogatepass")


def register_dictionaries(conn: sqlite3.Connection, path: str) -> None:
    """Know the dictionaries of the views file `conn` opened (none yet in a new file)."""
    with _lock:
        if path not in ("", ":memory:"):
            _files.add(path)
    try:
        rows = conn.execute("SELECT value FROM pack_dictionaries").fetchall()
    except sqlite3.OperationalError:  # a file made before dictionaries, or not made yet
        return
    for (data,) in rows:
        _remember(bytes(data))


def body_packer(conn: sqlite3.Connection, bodies: Sequence[tuple[str, str]]) -> Packer:
    """How the sink packs this batch's (language, body) pairs (inside its write transaction):
    each with its language's dictionary, made from this batch for a language that has none
    and has DICT_SAMPLES bodies here (until then, plain zlib)."""
    found = conn.execute("SELECT language, value FROM pack_dictionaries ORDER BY id").fetchall()
    made = {str(language): bytes(data) for language, data in reversed(found)}  # the first wins
    samples: dict[str, list[bytes]] = {}
    for language, body in bodies:
        if language not in made and len(body) >= PACK_MIN_CHARS:
            taken = samples.setdefault(language, [])
            if len(taken) < DICT_SAMPLES:
                taken.append(body[:DICT_PREFIX].encode("utf-8", "surrogatepass"))
    for language, taken in samples.items():
        if len(taken) == DICT_SAMPLES:
            made[language] = b"".join(taken)[-DICT_MAX:]
            conn.execute(
                "INSERT INTO pack_dictionaries (language, value) VALUES (?, ?)",
                (language, made[language]),
            )
    primed: dict[str, zlib._Compress] = {}

    def pack(language: str, text: str) -> str | bytes:
        if len(text) < PACK_MIN_CHARS or language not in made:
            return pack_text(text)
        if language not in primed:
            _remember(made[language])
            primed[language] = zlib.compressobj(PACK_LEVEL, zdict=made[language])
        packer = primed[language].copy()  # the primed state costs less to copy than to build
        return packer.compress(text.encode("utf-8", "surrogatepass")) + packer.flush()

    return pack


def _remember(data: bytes) -> None:
    with _lock:
        _known[zlib.adler32(data)] = data


def _inflated(stored: bytes) -> bytes:
    dict_id = int.from_bytes(stored[2:6], "big")
    data = _known.get(dict_id)
    if data is None:  # made after this process opened the file: read the files again
        with _lock:
            files = sorted(_files)
        for path in files:
            _reload(path)
        data = _known.get(dict_id)
    if data is None:
        raise StoreError(f"a packed view value names a dictionary ({dict_id:08x}) no file holds")
    unpacker = zlib.decompressobj(zdict=data)
    try:
        out = unpacker.decompress(stored) + unpacker.flush()
    except zlib.error as exc:
        raise StoreError(f"a packed view value does not unpack: {exc}") from exc
    if not unpacker.eof:
        raise StoreError("a packed view value is cut short")
    return out


def _reload(path: str) -> None:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return
    try:
        register_dictionaries(conn, path)
    except sqlite3.Error:
        pass
    finally:
        conn.close()
