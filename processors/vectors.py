"""Passages to embed (spec §2.5), derived purely from content and symbol records.

- File passages: the first 64 Ki chars in windows of 700 chars with 100 overlap (step 600),
  at most 64 windows (≈38 K chars), whitespace-only windows skipped (their index is kept, so
  point ids of the other windows never shift), each led by the file's path (a window from the
  middle of a file otherwise never names it). Not the spec's 1600/200/32: code runs ≈0.33
  MiniLM wordpieces per char (Django 5.1.4), so 90 % of 1600-char windows overran the model's
  256-token input and silently lost their tail (50 % of all tokens); at 700 the median window
  is 226 tokens, 34 % overrun and 8 % of tokens are lost, for 1.9x the embedding work
  (tests/bench/vector_bench.py `windows`). Dev set (`devset`, 22 queries): hybrid MRR 0.886 ->
  0.920, vector-only 0.856 -> 0.841 (one query).
- Contentless marker: a file with no non-blank window (empty or whitespace only) is never sent
  to the embedder; it gets one marker passage instead, so the step records it as done.
- Symbol passages: one per symbol: kind, fully-qualified name and signature.
- Memory passages: kind, topic/id, title, tags and body, windowed like files; none for an entry
  that is gone or already expired (its vectors are then retired).

Each passage carries its content address (`text_hash`, over the embedding space too), which
the vector step compares with the stored point so unchanged passages are never re-embedded.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Final, Literal

from schemas.memory import MemoryEntry

READ_CHARS = 65_536
WINDOW = 700  # chars; fits MiniLM's 256 wordpieces for most code (see the module docstring)
OVERLAP = 100
MAX_WINDOWS = 64
# Payload kind of a marker: stored, never searched or counted.
CONTENTLESS_KIND: Final = "contentless"
CONTENTLESS_IDX = -1  # passage index of a contentless marker (never a window index)

PassageKind = Literal["file", "symbol", "memory", "contentless"]


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
    # The path leads every window: it names what the file is about, which a window from the
    # middle of a file otherwise never says.
    return [
        Passage(repo_id, "file", key, path, i, f"{path}\n{chunk}") for i, chunk in windows(body)
    ]


def contentless_marker(repo_id: str, path: str) -> Passage:
    """The marker of a file with nothing to embed: stored, never embedded, never searched."""
    return Passage(repo_id, CONTENTLESS_KIND, file_key(repo_id, path), path, CONTENTLESS_IDX, "")


def symbol_passage(
    repo_id: str, path: str, fq: str, kind: str, signature: str, doc: str | None = None
) -> Passage:
    text = f"{kind.lower()} {fq}\n{signature}"
    if doc:
        text += f"\n{doc}"
    return Passage(repo_id, "symbol", symbol_key(repo_id, path, fq), path, 0, text, fq)


def memory_passages(entry: MemoryEntry | None, key: str, now: float) -> list[Passage]:
    """The passages of one memory entry (payload path = its agent-facing key)."""
    if entry is None or (entry.expires_at is not None and entry.expires_at <= now):
        return []
    f = entry.fields
    head = [f"{entry.kind.lower()} {entry.topic}/{entry.id}", f.get("title", "")]
    if entry.tags:
        head.append("tags: " + ", ".join(sorted(entry.tags)))
    text = "\n".join(part for part in (*head, f.get("body", "")) if part)
    return [Passage(entry.repo_id, "memory", key, key, i, chunk) for i, chunk in windows(text)]
