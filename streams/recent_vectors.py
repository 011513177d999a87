"""The vectors of passages a file lately had, by content address, for the vector step to reuse.

A point's id is its file and passage index, so the store finds an unchanged passage only at
its old index. Two common changes move passages without changing their text: an edit near the
top of a file shifts every later block to the next index, and a file deleted and restored (a
branch switched away and back, an editor's save as delete-and-create) loses its points before
it returns. Both re-embedded every passage: ~35 s for koa's lib/ switched back on a laptop
CPU, while the vectors of the very same texts had just been in the store. The vector step puts
the old points of each file it changes or deletes here before retiring them, and looks every
passage it would embed up here first.

Bounded: at most RECENT_PASSAGES vectors, the least recently stored going first, each as
32-bit floats (6 MiB for 4,096 MiniLM vectors). The content address covers the embedding
space and the passage's text (which leads with its path), so a hit is the same embedding.
"""

from __future__ import annotations

from array import array
from collections import OrderedDict
from collections.abc import Iterable, Sequence

RECENT_PASSAGES = 4096


class RecentVectors:
    """text hash -> vector of lately retired or replaced passages, least recent first out."""

    def __init__(self, capacity: int = RECENT_PASSAGES) -> None:
        self.capacity = capacity
        self._vectors: OrderedDict[str, array[float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._vectors)

    def remember(self, pairs: Iterable[tuple[str, Sequence[float]]]) -> None:
        """Keep each (text hash, vector); a known hash moves to the most recent end."""
        for text_hash, vector in pairs:
            if not vector:
                continue
            self._vectors[text_hash] = array("f", vector)
            self._vectors.move_to_end(text_hash)
        while len(self._vectors) > self.capacity:
            self._vectors.popitem(last=False)

    def get(self, text_hash: str) -> list[float] | None:
        """The vector of a passage with this content address, if one was kept."""
        found = self._vectors.get(text_hash)
        return None if found is None else found.tolist()
