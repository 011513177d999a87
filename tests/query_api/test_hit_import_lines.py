"""A hit's lines, of those matching the query as well outside any declaration, are not an
import statement's (query_api/retrieval/hit_details.locate_in_file, line_preference.is_import)."""

from __future__ import annotations

from query_api.retrieval.hit_details import locate_in_file, query_terms
from query_api.retrieval.line_preference import is_import
from streams.stores.views.symbols import SymbolRow

# seanmonstar/reqwest src/dns/hickory.rs, shortened: the `impl` header is in no declaration
HICKORY = "\n".join(
    [
        "//! DNS resolution via the hickory-resolver crate",  # 1
        "",
        "use hickory_resolver::TokioResolver;",  # 3
        "use super::{Addrs, Name, Resolve, Resolving};",  # 4: holds `Resolve`
        "",
        "/// Wrapper around an `AsyncResolver`.",  # 6
        "pub(crate) struct HickoryDnsResolver {",  # 7
        "    state: Arc<OnceCell<TokioResolver>>,",
        "}",  # 9
        "",
        "impl Resolve for HickoryDnsResolver {",  # 11: holds `Resolve`
        "    fn lookup(&self, host: Name) -> Lookups {",  # 12
        "        todo!()",
        "    }",
        "}",  # 15
    ]
)

PATH = "src/dns/hickory.rs"
SYMBOLS = [
    SymbolRow(
        "r", PATH, "hickory.HickoryDnsResolver", "HickoryDnsResolver", "Class", 7, 9, "d", ""
    ),
    SymbolRow("r", PATH, "hickory.HickoryDnsResolver.lookup", "lookup", "Method", 12, 14, "d", ""),
]


def test_an_impl_header_wins_over_an_import_scoring_the_same() -> None:
    """QA on seanmonstar/reqwest: 'implementations of the Resolve trait' pointed hickory.rs
    at its `use super::{..., Resolve, ...};` line, not at `impl Resolve for ...`, which lies
    in no declaration as the import does, so the first of the two won."""
    found = locate_in_file(HICKORY, SYMBOLS, query_terms("implementations of the Resolve trait"))
    assert found is not None and found.start_line == 11, found
    assert found.snippet.startswith("11: impl Resolve for"), found


def test_a_query_only_an_import_matches_still_finds_it() -> None:
    found = locate_in_file(HICKORY, SYMBOLS, query_terms("TokioResolver hickory_resolver"))
    assert found is not None and "3: use hickory_resolver" in found.snippet, found


def test_what_is_an_import() -> None:
    for line in (
        "use crate::dns::Resolve;",
        "pub(crate) use super::*;",
        "import os",
        'import { a } from "b"',
        "from a.b import c",
        "#include <stdio.h>",
        "package org.apache.commons.cli;",
        'const x = require("y")',
        "extern crate foo;",
    ):
        assert is_import(line), line
    for line in ("impl Resolve for X {", "use = 1", "important = 1", "import_name(x)"):
        assert not is_import(line), line
