"""The plain baselines repocontext is measured against: whole-file BM25, MiniLM over chunks, RRF.

Deliberately textbook, so a win over them means something: Okapi BM25 (k1 1.2, b 0.75) over
each file's text plus its path with identifier-aware tokens; all-MiniLM-L6-v2 (the product's
own `local` encoder) over 40-line chunks with the path prepended, a file scoring its best
chunk; and reciprocal-rank fusion (k = 60) of the two. The corpus is every file of a known
language (processors.language) up to 256 KiB, tests and docs included, as a user's checkout has.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from processors.language import language_for_path

MAX_FILE_BYTES = 256 * 1024
K1, B = 1.2, 0.75
RRF_K = 60
_WORD = re.compile(r"[A-Za-z0-9]+")
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def tokens(text: str) -> list[str]:
    """`parseHTTPHeader_v2` -> parse http header v 2; paths split on every separator."""
    return [part.lower() for word in _WORD.findall(text) for part in _PART.findall(word)]


def corpus_files(root: Path) -> dict[str, str]:
    """Repo-relative path -> text, for every readable file of a known language."""
    files: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not language_for_path(rel) or not path.is_file() or path.is_symlink():
            continue
        if path.stat().st_size > MAX_FILE_BYTES:
            continue
        raw = path.read_bytes()
        if b"\x00" not in raw:
            files[rel] = raw.decode("utf-8", errors="replace")
    return files


class BM25:
    """Okapi BM25 over whole files; an inverted index so a query touches only its postings."""

    def __init__(self, files: dict[str, str]) -> None:
        self.paths = list(files)
        self.lengths: list[int] = []
        self.postings: dict[str, list[tuple[int, int]]] = {}
        for doc, (path, text) in enumerate(files.items()):
            counts = Counter(tokens(path + "\n" + text))
            self.lengths.append(sum(counts.values()))
            for term, tf in counts.items():
                self.postings.setdefault(term, []).append((doc, tf))
        self.avg_length = sum(self.lengths) / len(self.lengths) if self.lengths else 1.0

    def rank(self, query: str, k: int = 50) -> list[str]:
        n = len(self.paths)
        scores: dict[int, float] = {}
        for term in set(tokens(query)):
            postings = self.postings.get(term, [])
            idf = math.log(1 + (n - len(postings) + 0.5) / (len(postings) + 0.5))
            for doc, tf in postings:
                norm = K1 * (1 - B + B * self.lengths[doc] / self.avg_length)
                scores[doc] = scores.get(doc, 0.0) + idf * tf * (K1 + 1) / (tf + norm)
        best = sorted(scores, key=lambda d: (-scores[d], self.paths[d]))[:k]
        return [self.paths[d] for d in best]


def rrf(rankings: Sequence[Sequence[str]], k: int = 50, constant: int = RRF_K) -> list[str]:
    """Reciprocal-rank fusion: a file scores the sum of 1/(constant + rank) over rankings."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, path in enumerate(ranking, start=1):
            scores[path] = scores.get(path, 0.0) + 1.0 / (constant + rank)
    return sorted(scores, key=lambda p: (-scores[p], p))[:k]
