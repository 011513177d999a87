"""Passages to embed (spec §2.5), derived purely from content and symbol records.

- File passages: the first 64 Ki chars in windows of 1600 chars with 200 overlap (step 1400),
  at most 32 windows, whitespace-only windows skipped (their index is kept, so point ids of
  the other windows never shift).
- Symbol passages: one per symbol: kind, fully-qualified name and signature.

Each passage carries its content address (`text_hash`, over the embedding space too), which
the vector step compares with the stored point so unchanged passages are never re-embedded.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Literal

READ_CHARS = 65_536
WINDOW = 1600
OVERLAP = 200
MAX_WINDOWS = 32

PassageKind = Literal["file", "symbol", "memory"]


@dataclass(frozen=True, slots=True)
class Passage:
    repo_id: str
    kind: PassageKind
    source_key: str  # repo/{repoId}/file/{path} | repo/{repoId}/symbol/{path}#{fq}
    path: str
    idx: int
    text: str
    fq: str | None = None

    def text_hash(self, space_fingerprint: str) -> str:
        digest = hashlib.blake2b(digest_size=16)
        digest.update(space_fingerprint.encode())
        digest.update(b"\0")
        digest.update(self.text.encode("utf-8", "replace"))
        return digest.hexdigest()


def file_key(repo_id: str, path: str) -> str:
    return f"repo/{repo_id}/file/{path}"


def symbol_key(repo_id: str, path: str, fq: str) -> str:
    return f"repo/{repo_id}/symbol/{path}#{fq}"


def windows(body: str) -> list[tuple[int, str]]:
    """(index, text) of every non-blank window of the first READ_CHARS chars."""
    text = body[:READ_CHARS]
    step = WINDOW - OVERLAP
    out: list[tuple[int, str]] = []
    for i in range(MAX_WINDOWS):
        start = i * step
        if start >= len(text) or (i > 0 and start + OVERLAP >= len(text)):
            break
        chunk = text[start : start + WINDOW]
        if chunk.strip():
            out.append((i, chunk))
    return out


def file_passages(repo_id: str, path: str, body: str) -> list[Passage]:
    key = file_key(repo_id, path)
    # The path leads the first window: it names what the file is about.
    return [
        Passage(repo_id, "file", key, path, i, f"{path}\n{chunk}" if i == 0 else chunk)
        for i, chunk in windows(body)
    ]


def symbol_passage(
    repo_id: str, path: str, fq: str, kind: str, signature: str, doc: str | None = None
) -> Passage:
    text = f"{kind.lower()} {fq}\n{signature}"
    if doc:
        text += f"\n{doc}"
    return Passage(repo_id, "symbol", symbol_key(repo_id, path, fq), path, 0, text, fq)
