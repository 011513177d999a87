"""Symbol search terms are derived by the symbols processor and indexed by the views as they
come (issue 19 item 5); the views keep them only when they are not the terms of the file's
declarations (schema.decl_terms_of), and index and forget exactly what the record carried."""

from __future__ import annotations

from pathlib import Path

import pytest

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


def symbols_record(path: str, body: str = BODY) -> SymbolsRecord:
    [record] = [v for t, _, v in records(path, body) if t == topics.SYMBOLS.name]
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


def vocab(store: ViewStore) -> list[tuple[str, int, int]]:
    sql = "SELECT term, doc, cnt FROM symbol_fts_vocab ORDER BY term"
    return [tuple(r) for r in store.read(lambda c: c.execute(sql).fetchall())]


def kept_terms(store: ViewStore) -> list[tuple[object, object]]:
    sql = "SELECT symbol_terms, signature_terms FROM symbol_docs"
    return [tuple(r) for r in store.read(lambda c: c.execute(sql).fetchall())]


# a non-ASCII name changes which of the tokenizer's patterns reads the whole file's names
@pytest.mark.parametrize(
    "body", [BODY, "class İOrder:\n    def straße_ß(self, x: 'Ünï') -> None:\n        pass\n"]
)
def test_terms_of_the_declarations_are_derived_and_forgotten_exactly(
    tmp_path: Path, body: str
) -> None:
    record = symbols_record("book.py", body)
    other = record.model_copy(update={"symbol_terms": "zebra order", "signature_terms": "yak"})
    with ViewStore(tmp_path / "v.db", default_registry()) as store:
        store.apply([(topics.SYMBOLS.name, "r/book.py", record)], {})
        assert kept_terms(store) == [(None, None)]  # both derived from symbol_files.decls
        assert fts_rows(store) == [("book.py", record.symbol_terms, record.signature_terms)]
        derived = vocab(store)
        assert derived
        # replaced by a record whose terms are not its declarations': kept, and the derived
        # ones forgotten exactly (the vocabulary holds only the new terms)
        store.apply([(topics.SYMBOLS.name, "r/book.py", other)], {})
        assert kept_terms(store) == [("zebra order", "yak")]
        assert {t for t, _, _ in vocab(store)} == {"zebra", "order", "yak"}
        store.apply([(topics.SYMBOLS.name, "r/book.py", record)], {})
        assert vocab(store) == derived
        store.apply([(topics.SYMBOLS.name, "r/book.py", None)], {})
        assert vocab(store) == [] and kept_terms(store) == []
        store.apply([(topics.SYMBOLS.name, "r/book.py", record)], {})
        assert store.reset_repo("r")["symbol_docs"] == 1
        assert vocab(store) == []
