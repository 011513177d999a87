"""names_alike reads the names index folded as a query writes a name (symbol_names_folded):
unheld_words.joined_names asks it for every query word no file holds, and without the index
each ask scanned every name the repository declares (a keyword search at 11 k files spent a
fifth of its time there)."""

from __future__ import annotations

from pathlib import Path

from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore
from streams.stores.views.symbol_decls import ALIKE_SQL, names_alike
from tests.streams.symbol_records import records

FILES = {
    "src/console_writer.py": "class ConsoleWriter:\n    pass\n",
    "src/split.py": (
        "def split_graphemes(text):\n    return text\n\ndef _split_text(t):\n    return t\n"
    ),
}


def test_names_alike_finds_a_name_by_case_and_underscores_through_the_index(
    tmp_path: Path,
) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in FILES.items() for rec in records(path, body)], {})
        assert store.read(lambda c: names_alike(c, "r", "consolewriter", 1)) == [
            ("ConsoleWriter", 1)
        ]
        assert store.read(lambda c: names_alike(c, "r", "splitGraphemes", 1)) == [
            ("split_graphemes", 1)
        ]
        assert store.read(lambda c: names_alike(c, "r", "split_text", 1)) == []
        plan = store.read(lambda c: c.execute(f"EXPLAIN QUERY PLAN {ALIKE_SQL}", ("r", "x")))
        details = " ".join(str(row[-1]) for row in plan)
    assert "symbol_names_folded" in details, details
