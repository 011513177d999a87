"""Token counts a bundle has taken already, kept for the next time it asks.

Packing one bundle counts the same texts many times over: a file's spans when they are
chosen, again in the entry that carries them, in the plan's costing, in the fill, and the
whole answer in each round that settles `responseTokens`. The counts are exact BPE
(processors/tokens.py) and the BPE was most of a bundle's CPU, so the service counts each
text once and then looks it up, across calls too (the files a repository's requests lead
to recur). The memo holds at most MAX_HELD_CHARS characters of text, dropping the least
recently used; a text under MIN_CHARS is counted again rather than kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

MAX_HELD_CHARS = 8_000_000  # about 8 MB of mostly-ASCII code, whatever the texts' number
MIN_CHARS = 64  # a short text costs less to count than to keep


class CountMemo:
    """`count` with a bounded memory of the texts it counted (least recently used out).
    Thread-safe: a bundle renders its files in worker threads."""

    def __init__(self, count: Callable[[str], int], max_held_chars: int = MAX_HELD_CHARS) -> None:
        self._count = count
        self._max_held = max_held_chars
        self._held = 0
        self._memo: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, text: str) -> int:
        if len(text) < MIN_CHARS or len(text) > self._max_held:
            return self._count(text)
        with self._lock:
            known = self._memo.get(text)
            if known is not None:
                self._memo.move_to_end(text)
                return known
        counted = self._count(text)  # outside the lock: other threads count meanwhile
        with self._lock:
            if text not in self._memo:
                self._memo[text] = counted
                self._held += len(text)
                while self._held > self._max_held:
                    dropped, _ = self._memo.popitem(last=False)
                    self._held -= len(dropped)
        return counted

    @property
    def held_chars(self) -> int:
        """The characters of text the memo holds now (at most its bound)."""
        return self._held
