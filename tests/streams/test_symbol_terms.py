"""Symbol search terms are derived by the symbols processor and stored by the views as they
come: the view sink tokenizes nothing (issue 19 item 5)."""

from __future__ import annotations

from pathlib import Path

from processors.symbols.processor import PROCESSOR_VERSION
from schemas import topics
from schemas.symbols import SymbolsRecord
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

BODY = "class OrderBook:\n    def add_order(self, price: int) -> None:\n        pass\n"


def fts_rows(store: ViewStore) -> list[tuple[str, str, str]]:
    sql = (
        "SELECT d.path, f.symbol_terms, f.signature_terms FROM symbol_fts f"
        " JOIN symbol_docs d ON d.id = f.rowid ORDER BY d.path"
    )
    return [tuple(r) for r in store.read(lambda c: c.execute(sql).fetchall())]


def symbols_record(path: str) -> SymbolsRecord:
    [record] = [v for t, _, v in records(path, BODY) if t == topics.SYMBOLS.name]
    assert isinstance(record, SymbolsRecord)
    return record


def test_the_processor_emits_the_terms_of_names_and_signatures() -> None:
    record = symbols_record("book.py")
    assert record.processor_version == PROCESSOR_VERSION
    assert record.symbol_terms.split() == ["order", "book", "add", "order"]
    assert {"price", "int", "none"} <= set(record.signature_terms.split())


def test_the_views_store_the_records_terms_without_deriving_their_own(tmp_path: Path) -> None:
    record = symbols_record("book.py").model_copy(
        update={"symbol_terms": "zebra", "signature_terms": "yak"}
    )
    with ViewStore(tmp_path / "v.db", default_registry()) as store:
        store.apply([(topics.SYMBOLS.name, "r/book.py", record)], {})
        assert fts_rows(store) == [("book.py", "zebra", "yak")]
        # a record without terms (or without symbols) has no search row; its symbols stay
        store.apply(
            [
                (
                    topics.SYMBOLS.name,
                    "r/book.py",
                    record.model_copy(update={"symbol_terms": "", "signature_terms": ""}),
                )
            ],
            {},
        )
        assert fts_rows(store) == []
        assert store.read(lambda c: c.execute("SELECT count(*) FROM symbols").fetchone()[0]) == 2
