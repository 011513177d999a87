"""Passages to embed (spec §2.5), derived purely from content records and memory entries.

- What is embedded: the source files search is asked to find. Tests, docs, examples,
  benchmarks, configuration and vendored code (processors/path_roles.py), lock, minified and
  generated files, and data files are not: search pushes those roles down anyway, and on the
  localisation benchmark their vectors only competed with the source they describe. Such a file
  gets one contentless marker (below), so the vector step records it as done and coverage
  counts it.
- File passages: one per coherent block of the first 64 Ki chars, not overlapping. Blocks are
  the file's blank-line-separated paragraphs (in code: declarations, or a declaration's
  docstring and body) packed greedily up to CHUNK_CHARS; a paragraph longer than that is cut
  at line ends. CHUNK_CHARS plus the leading path fits MiniLM's 256 wordpieces for most code
  (≈0.33 wordpieces per char), so the encoder sees all of every passage. At most MAX_CHUNKS
  per file. Each passage is led by the file's path, which names what a block from the middle
  of a file never says. There is no second passage per symbol: the declaration's text is in
  its block.
- Contentless marker: a file with nothing to embed (empty, whitespace only, or not embedded by
  the rule above) is never sent to the embedder; it gets one marker passage instead.
- Memory passages: kind, topic/id, title, tags and body in windows of 700 chars with 100
  overlap; none for an entry that is gone or already expired (its vectors are then retired).

Each passage carries its content address (`text_hash`, over the embedding space too), which
the vector step compares with the stored point so unchanged passages are never re-embedded.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from dataclasses import dataclass
from typing import Final, Literal

from processors.path_roles import Role, role_of
from processors.structural import is_generated
from schemas.memory import MemoryEntry

READ_CHARS = 65_536
CHUNK_CHARS = 720  # with the path, ≤ 256 MiniLM wordpieces for most code
MAX_CHUNKS = 64
WINDOW = 700  # memory windows (chars)
OVERLAP = 100
MAX_WINDOWS = 64
# Payload kind of a marker: stored, never searched or counted.
CONTENTLESS_KIND: Final = "contentless"
CONTENTLESS_IDX = -1  # passage index of a contentless marker (never a chunk index)

# Roles whose files are not embedded (search ranks them below source unless asked for).
SKIPPED_ROLES: Final = frozenset(
    {Role.TEST, Role.DOC, Role.EXAMPLE, Role.BENCH, Role.CONFIG, Role.VENDORED}
)
# Data, not prose or code: nothing a "where is the code that does X" query means.
DATA_SUFFIXES: Final = (
    ".svg", ".csv", ".tsv", ".map", ".snap", ".pem", ".crt", ".key", ".sum", ".bin",
    ".ipynb", ".po", ".pot",
)  # fmt: skip
MINIFIED_MEAN_LINE = 250  # chars per line above which a body is a bundle, not source
_PARAGRAPH = re.compile(r"\n[ \t]*\n")

PassageKind = Literal["file", "symbol", "memory", "contentless"]


@dataclass(frozen=True, slots=True)
class Passage:
    repo_id: str
    kind: PassageKind
    source_key: str  # repo/{repoId}/file/{path} | repo/{repoId}/memory/...
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


def is_minified(body: str) -> bool:
    """A bundle or data dump: long lines on average (source code averages 20-60 chars)."""
    sample = body[:READ_CHARS]
    return len(sample) > 2000 and len(sample) / (sample.count("\n") + 1) > MINIFIED_MEAN_LINE


def embeddable_path(path: str) -> bool:
    """Whether a file's role and suffix let it be embedded (its body may still rule it out)."""
    return role_of(path) not in SKIPPED_ROLES and not path.lower().endswith(DATA_SUFFIXES)


def embeddable(path: str, body: str) -> bool:
    """Whether a file's body is embedded at all (see the module docstring)."""
    if not embeddable_path(path):
        return False
    return not (is_generated(path, body) or is_minified(body))


def _pieces(paragraph: str) -> list[str]:
    """A paragraph cut at line ends into pieces of at most CHUNK_CHARS (a longer line is cut
    by characters)."""
    if len(paragraph) <= CHUNK_CHARS:
        return [paragraph]
    out: list[str] = []
    current = ""
    for line in paragraph.splitlines(keepends=True):
        while len(line) > CHUNK_CHARS:
            if current:
                out.append(current)
                current = ""
            out.append(line[:CHUNK_CHARS])
            line = line[CHUNK_CHARS:]
        if len(current) + len(line) > CHUNK_CHARS:
            out.append(current)
            current = ""
        current += line
    if current:
        out.append(current)
    return out


def chunks(body: str) -> list[str]:
    """The non-blank blocks of the first READ_CHARS chars, in order, at most MAX_CHUNKS."""
    text = body[:READ_CHARS]
    bounds = [0, *(m.end() for m in _PARAGRAPH.finditer(text)), len(text)]
    out: list[str] = []
    current = ""
    for start, end in itertools.pairwise(bounds):
        for piece in _pieces(text[start:end]):
            if current and len(current) + len(piece) > CHUNK_CHARS:
                if current.strip():
                    out.append(current.strip("\n"))
                current = ""
            current += piece
    if current.strip():
        out.append(current.strip("\n"))
    return out[:MAX_CHUNKS]


def windows(body: str) -> list[tuple[int, str]]:
    """(index, text) of every non-blank memory window of the first READ_CHARS chars."""
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
    """A file's passages; [] when it has nothing to embed (the caller stores a marker)."""
    if not embeddable(path, body):
        return []
    key = file_key(repo_id, path)
    return [
        Passage(repo_id, "file", key, path, i, f"{path}\n{block}")
        for i, block in enumerate(chunks(body))
    ]


def contentless_marker(repo_id: str, path: str) -> Passage:
    """The marker of a file with nothing to embed: stored, never embedded, never searched."""
    return Passage(repo_id, CONTENTLESS_KIND, file_key(repo_id, path), path, CONTENTLESS_IDX, "")


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
