"""The symbols processor: `files.v1` -> `symbols.v1` + `xrefs.v1` (one parse, two records).

Replace-per-file: each file version yields one SymbolsRecord and one XrefsRecord under the
file's key; a deleted or binary file yields tombstones for both. A file whose language has no
grammar here yields nothing (it never had symbols, and a path's language cannot change).
Syntax errors are not errors: tree-sitter recovers, and we keep what it recovered.

The parse covers the text keyword search indexes (structural.indexed_text: the published body,
1 Mi characters by default, 4 Mi at most), not only the 64 Ki the tools return, so outline,
symbol search and references reach a long file's last declarations and stop where search stops
(`indexedChars`). One 1 Mi parse costs ~0.3 s and ~40 MiB, released with the tree.
"""

from __future__ import annotations

import gc

from pydantic import BaseModel

from processors.base import Emit, ProcessContext
from processors.language import language_for_path
from processors.structural import checked_file_event, indexed_text, tombstone_key
from processors.symbols.extract import Extracted, extract
from processors.symbols.grammars import grammar_for
from processors.symbols.terms import search_terms
from schemas import topics
from schemas.events import FileUpsert
from schemas.symbols import SymbolsRecord, XrefsRecord

# The extractor's version, in every record it makes. Raise it when a change to the queries or
# to the extraction (extract.py, nesting.py, references.py, languages/) changes what existing
# files yield: an embedded service re-derives the records of an older version at start
# (streams/runtime/rederive.py), so users get the fix without deleting their data. What each
# version changed: docs/symbols.md, "Re-derivation after an upgrade".
PROCESSOR_VERSION = 65

# the records' validators, called without model_validate's wrapper (the same validation:
# pydantic's own entry point, one call less per record)
_validate_symbols = SymbolsRecord.__pydantic_validator__.validate_python
_validate_xrefs = XrefsRecord.__pydantic_validator__.validate_python


def symbols_of(upsert: FileUpsert) -> tuple[SymbolsRecord, XrefsRecord] | None:
    """Both records of one file, or None when its language is not supported."""
    language = upsert.language or language_for_path(upsert.path)
    text = indexed_text(upsert)
    grammar = grammar_for(language, upsert.path, text)
    if grammar is None:
        return None
    # One file allocates hundreds of thousands of short-lived containers (query matches,
    # nodes, record dicts) and no reference cycles: refcounting frees them all, and the cyclic
    # collector would only re-walk them. Paused, then restored.
    collecting = gc.isenabled()
    gc.disable()
    try:
        found: Extracted = extract(text, language, upsert.path, grammar)
        repo_id, path, digest = upsert.repo_id, upsert.path, upsert.digest
        symbols: SymbolsRecord = _validate_symbols(
            {
                "repo_id": repo_id,
                "path": path,
                "digest": digest,
                "language": language,
                "symbols": found.symbols,
                "processor_version": PROCESSOR_VERSION,
                **search_terms(found.symbols),
            }
        )
        xrefs: XrefsRecord = _validate_xrefs(
            {
                "repo_id": repo_id,
                "path": path,
                "digest": digest,
                "language": language,
                "imports": found.imports,
                "references": found.references,
                "references_dropped": found.references_dropped,
                "processor_version": PROCESSOR_VERSION,
            }
        )
        return symbols, xrefs
    finally:
        if collecting:
            gc.enable()


class SymbolsProcessor:
    name = "symbols"
    version = PROCESSOR_VERSION

    def process(
        self, topic: str, key: str | None, event: BaseModel | None, ctx: ProcessContext
    ) -> list[Emit]:
        if event is None:
            out_key = tombstone_key(key)
            return [
                Emit(topics.SYMBOLS.name, out_key, None),
                Emit(topics.XREFS.name, out_key, None),
            ]
        out_key, upsert = checked_file_event(key, event)
        if upsert.binary:
            return [
                Emit(topics.SYMBOLS.name, out_key, None),
                Emit(topics.XREFS.name, out_key, None),
            ]
        records = symbols_of(upsert)
        if records is None:
            return []
        symbols, xrefs = records
        return [
            Emit(topics.SYMBOLS.name, out_key, symbols),
            Emit(topics.XREFS.name, out_key, xrefs),
        ]
