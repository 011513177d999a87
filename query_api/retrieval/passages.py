"""Where in a file the search's vectors matched: the lines of a hit's best passage.

A semantic hit names its best passage by its point id (`vectorId`, uuid5 of the file's source
key and the passage's index: streams/stores/vectors.point_id). The passages are a pure function
of the stored body (processors/vectors.chunks: blank-line-separated blocks of the first 64 Ki
characters, each stripped of its leading and trailing newlines), so the index is found by
recomputing the ids, and the block's lines by finding the blocks in the body in order. The
bundle sends a large file as spans; the declaration holding this block is one the task's
meaning, not only its words, points at (query_api/context/spans.py).
"""

from __future__ import annotations

from processors.vectors import READ_CHARS, chunks, file_key
from streams.stores.vectors import point_id

MEMO_SIZE = 1024  # passages found, kept by (file, point id, body length, body hash)
_memo: dict[tuple[str, str, str, int, int], tuple[int, int] | None] = {}


def passage_lines(
    repo_id: str, path: str, body: str, vector_id: str | None
) -> tuple[int, int] | None:
    """(first, last) 1-based line of the passage `vector_id` names in `body`; None when it
    names none of the body's passages (a symbol or memory vector, or a body changed since)."""
    if not vector_id:
        return None
    # a bundle renders a file under several shares: its blocks are found once (a str keeps
    # its hash; the key holds no body, which may be megabytes)
    key = (repo_id, path, vector_id, len(body), hash(body))
    if key not in _memo:
        if len(_memo) >= MEMO_SIZE:
            _memo.clear()
        _memo[key] = _passage_lines(repo_id, path, body, vector_id)
    return _memo[key]


def _passage_lines(repo_id: str, path: str, body: str, vector_id: str) -> tuple[int, int] | None:
    blocks = chunks(body)
    key = file_key(repo_id, path)
    index = next((i for i in range(len(blocks)) if point_id(key, i) == vector_id), None)
    if index is None:
        return None
    text = body[:READ_CHARS]
    at = 0
    for i, block in enumerate(blocks[: index + 1]):
        found = text.find(block, at)
        if found < 0:
            return None
        if i == index:
            first = text.count("\n", 0, found) + 1
            return first, first + block.count("\n")
        at = found + len(block)
    return None
