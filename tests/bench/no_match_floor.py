"""Calibrates no_match.SEMANTIC_FLOOR: the best cosine of any passage to a query that is
about nothing in the repository, against that of real questions about it.

    .venv/bin/python -m tests.bench.no_match_floor

Embeds (all-MiniLM-L6-v2, local) the first six file passages of this project's query_api/
and processors/ modules, as the indexer writes them (path-led 700-char windows), and prints
each query's best cosine. The floor must sit above every nonsense query; it only applies
when no hit holds a word of the query, which real questions nearly always do.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from processors.vectors import file_passages
from query_api.retrieval.no_match import SEMANTIC_FLOOR
from streams.embedders.local import LocalEmbedder

PROJECT = Path(__file__).resolve().parents[2]
NONSENSE = [
    "zebra_quokka_unique",
    "flibbertigibbet_wobble",
    "purple elephant dance party",
    "xq_zorp_9",
    "recipe for banana bread",
    "quokkafunction",
    "wombat_tax_return",
    "the capital of mongolia",
    "ZebraQuokkaHandler",
    "knitting patterns for socks",
]
REAL = [
    "exact fallback breaker after a stall in the retrieval ladder",
    "how are memory claims fenced and renewed",
    "tokenize camelCase identifiers for BM25",
    "compute the token budget of a context bundle",
    "readiness phase building serving",
    "workspace guard path containment",
    "embed query text",
    "parse known path@hash claims",
    "water fill shares",
    "mcp server tool definition schema",
]


def main() -> None:
    embedder = LocalEmbedder()
    files = sorted(PROJECT.glob("query_api/*.py"))[:40] + sorted(PROJECT.glob("processors/*.py"))
    texts = []
    for f in files:
        rel = str(f.relative_to(PROJECT))
        texts += [p.text for p in file_passages("r", rel, f.read_text())[:6]]
    passages = np.array(embedder.embed(texts, "passage").vectors)
    print(f"{len(texts)} passages; floor {SEMANTIC_FLOOR}")
    for label, queries in (("nonsense", NONSENSE), ("real", REAL)):
        best = (np.array(embedder.embed(queries, "query").vectors) @ passages.T).max(axis=1)
        print(f"{label:<9}", " ".join(f"{b:.2f}" for b in best))


if __name__ == "__main__":
    main()
