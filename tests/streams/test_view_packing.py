"""Bodies packed with a views file's own zlib dictionary (streams/stores/views/packing.py)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from schemas import topics
from schemas.records import ContentRecord
from streams.errors import StoreError
from streams.stores import ViewStore
from streams.stores.views import packing
from streams.stores.views.handlers import default_registry
from streams.stores.views.packing import DICT_SAMPLES, pack_text, unpack_text

CONTENT = topics.CONTENT.name
HEADER = "# Licensed under the Apache License, Version 2.0 (the License);\n" * 6


def body(n: int) -> str:
    return HEADER + f"def handler_{n}(request):\n    return {n} * request.size\n" * (1 + n % 5)


def record(path: str, text: str, language: str = "python") -> tuple[str, str, ContentRecord]:
    rec = ContentRecord(
        repo_id="r", path=path, digest="xx128:1", language=language, body=text, path_terms=path
    )
    return (CONTENT, f"r/{path}", rec)


def stored_bodies(views: ViewStore) -> dict[str, bytes | str]:
    sql = "SELECT path, body FROM content ORDER BY path"
    return {str(p): b for p, b in views.read(lambda c: c.execute(sql).fetchall())}


def test_bodies_pack_with_the_files_dictionary_and_read_back_exactly(tmp_path: Path) -> None:
    texts = {f"m{n:03d}.py": body(n) for n in range(DICT_SAMPLES + 10)}
    with ViewStore(tmp_path / "v.db", default_registry()) as views:
        # too few samples in the first batch: plain zlib, no dictionary yet
        views.apply([record("first.py", body(999))], {})
        views.apply([record(p, t) for p, t in texts.items()], {})
        views.apply([record("later.py", body(7) + "tail\n")], {})
        stored = stored_bodies(views)
        count = "SELECT count(*) FROM pack_dictionaries"
        assert views.read(lambda c: c.execute(count).fetchone()[0]) == 1
        for path, text in {**texts, "first.py": body(999), "later.py": body(7) + "tail\n"}.items():
            content = views.get_content("r", path)
            assert content is not None and content.body == text
        first, later = stored["first.py"], stored["later.py"]
        assert isinstance(first, bytes) and not first[1] & 0x20  # made before the dictionary
        assert isinstance(later, bytes) and later[1] & 0x20  # names its dictionary
        plain = len(zlib.compress((body(7) + "tail\n").encode(), 6))
        assert len(later) < plain
        java = {f"J{n}.java": "// java\n" + body(n) for n in range(DICT_SAMPLES)}
        views.apply([record(p, t, "java") for p, t in java.items()], {})  # its own dictionary
        assert views.read(lambda c: c.execute(count).fetchone()[0]) == 2
        for path, text in java.items():
            content = views.get_content("r", path)
            assert content is not None and content.body == text
        views.apply([(CONTENT, f"r/{p}", None) for p in ("later.py", "m001.py")], {})
        vocab = "SELECT count(*) FROM content_fts_vocab WHERE term = 'tail'"
        assert views.read(lambda c: c.execute(vocab).fetchone()[0]) == 0  # deleted exactly


def test_a_process_that_opened_the_file_first_reads_what_was_packed_later(
    tmp_path: Path,
) -> None:
    path = tmp_path / "v.db"
    with ViewStore(path, default_registry()) as views:
        views.apply([record("first.py", "x = 1\n")], {})
    script = (
        "import sys, time\n"
        "from streams.stores import ViewStore\n"
        "from streams.stores.views.handlers import default_registry\n"
        "with ViewStore(sys.argv[1], default_registry()) as views:\n"
        "    assert views.get_content('r', 'first.py') is not None\n"  # opened: no dictionary
        "    print('ready', flush=True)\n"
        "    sys.stdin.readline()\n"
        "    print(len(views.get_content('r', 'm005.py').body), flush=True)\n"
    )
    reader = subprocess.Popen(
        [sys.executable, "-c", script, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert reader.stdout is not None and reader.stdin is not None
    try:
        assert reader.stdout.readline().strip() == "ready"
        with ViewStore(path, default_registry()) as views:
            views.apply([record(f"m{n:03d}.py", body(n)) for n in range(DICT_SAMPLES)], {})
        reader.stdin.write("go\n")
        reader.stdin.flush()
        assert reader.stdout.readline().strip() == str(len(body(5)))
    finally:
        reader.stdin.close()
        assert reader.wait(timeout=60) == 0


def test_a_value_naming_a_dictionary_no_file_holds_is_refused_in_one_line() -> None:
    packer = zlib.compressobj(6, zdict=b"a dictionary no views file holds" * 8)
    stored = packer.compress(b"some body text " * 40) + packer.flush()
    with pytest.raises(StoreError, match="names a dictionary"):
        unpack_text(stored)


def test_short_and_plain_values_read_as_before(tmp_path: Path) -> None:
    assert pack_text("short") == "short" and unpack_text("short") == "short"
    long = "plain text " * 50
    assert unpack_text(zlib.compress(long.encode(), 6)) == long
    conn = sqlite3.connect(tmp_path / "old.db")  # a file from before dictionaries
    packing.register_dictionaries(conn, str(tmp_path / "old.db"))
    conn.close()


def test_declaration_lists_pack_with_their_languages_dictionary(tmp_path: Path) -> None:
    from streams.stores.views.symbols import symbols_named, symbols_of_files
    from tests.streams.symbol_records import records

    def module(n: int) -> str:
        methods = "".join(
            f"    def method_{m}(self, order_id: int) -> int: ...\n" for m in range(8)
        )
        return f"class OrderService{n}:\n{methods}"

    with ViewStore(tmp_path / "v.db", default_registry()) as views:
        made_records = [r for n in range(DICT_SAMPLES + 4) for r in records(f"m{n}.py", module(n))]
        # the sink's batches come topic by topic; a store applies one topic's run at a time
        views.apply(sorted(made_records, key=lambda r: r[0]), {})
        languages = "SELECT language FROM pack_dictionaries ORDER BY id"
        made = [r[0] for r in views.read(lambda c: c.execute(languages).fetchall())]
        assert made == ["python", "decls python"]
        stored = views.read(lambda c: c.execute("SELECT decls FROM symbol_files").fetchall())
        assert all(isinstance(s[0], bytes) and s[0][1] & 0x20 for s in stored)
        found = views.read(lambda c: symbols_of_files(c, "r", ["m3.py", "m67.py"]))
        assert [s.fq_name for s in found["m3.py"]][:2] == [
            "m3.OrderService3",
            "m3.OrderService3.method_0",
        ]
        assert len(found["m67.py"]) == 9
        named = views.read(lambda c: symbols_named(c, "r", ["method_7"]))
        assert len(named) == DICT_SAMPLES + 4
        views.apply([r for n in range(DICT_SAMPLES + 4) for r in records(f"m{n}.py", None)], {})
        assert (
            views.read(lambda c: c.execute("SELECT count(*) FROM symbol_keys").fetchone()[0]) == 0
        )
