"""Concurrent query embeddings share one encoder call.

The local encoder runs one call at a time; under many agents each search used to queue its
own one-text call behind the others (16 concurrent searches: 16 calls in a row). Here a
query that arrives while a call runs waits for the next call, which embeds every query that
arrived meanwhile in one batch (the encoder's cost grows far slower than the batch), so the
wait is bounded by about two calls instead of the queue length.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from streams.embedders.base import EmbedResult

MAX_QUERY_BATCH = 64


class QueryBatcher:
    def __init__(
        self, embed: Callable[[list[str]], EmbedResult], max_batch: int = MAX_QUERY_BATCH
    ) -> None:
        self._embed = embed  # resolved per call: the owner may swap its embedder
        self.max_batch = max_batch
        self._pending: list[tuple[str, asyncio.Future[EmbedResult]]] = []
        self._draining = False
        self.calls = 0  # encoder calls made (fewer than queries under concurrency)
        self._call_started: float | None = None  # monotonic start of the call in flight

    def running_for(self) -> float | None:
        """Seconds the encoder call in flight has run, None when none runs."""
        started = self._call_started
        return None if started is None else time.monotonic() - started

    async def embed(self, text: str) -> EmbedResult:
        """One query's embedding (a failure is a value, as everywhere in the port)."""
        future: asyncio.Future[EmbedResult] = asyncio.get_running_loop().create_future()
        self._pending.append((text, future))
        if not self._draining:
            self._draining = True
            asyncio.get_running_loop().create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        try:
            while self._pending:
                batch = self._pending[: self.max_batch]
                del self._pending[: self.max_batch]
                batch = [(text, fut) for text, fut in batch if not fut.done()]  # cancelled
                if not batch:
                    continue
                texts = list(dict.fromkeys(text for text, _ in batch))
                self.calls += 1
                self._call_started = time.monotonic()
                try:
                    result = await asyncio.to_thread(self._embed, texts)
                except Exception as exc:  # the port never raises; a broken adapter might
                    result = EmbedResult.failed(f"{type(exc).__name__}: {exc}")
                finally:
                    self._call_started = None
                by_text = dict(zip(texts, result.vectors, strict=False)) if result.ok else {}
                for text, fut in batch:
                    if fut.done():
                        continue
                    if text in by_text:
                        fut.set_result(EmbedResult(vectors=[by_text[text]]))
                    else:
                        fut.set_result(EmbedResult.failed(result.error or "no vector returned"))
        finally:
            self._draining = False
