"""The bundle's token-count memo (query_api.context.count_memo): the counts it returns are the
encoder's, it counts a text once while it holds it, and it never holds more than its bound."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from processors.tokens import count_tokens
from query_api.context.count_memo import MIN_CHARS, CountMemo


class CountingEncoder:
    """count_tokens, and how many times each text was handed to it."""

    def __init__(self) -> None:
        self.calls: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        self.calls[text] = self.calls.get(text, 0) + 1
        return count_tokens(text)


def text(n: int, size: int = 200) -> str:
    return (f"def handler_{n}(request):\n    return respond(request, {n})\n" * size)[:size]


def test_counts_are_the_encoders_and_a_held_text_is_counted_once() -> None:
    encoder = CountingEncoder()
    memo = CountMemo(encoder)
    texts = [text(i) for i in range(5)]
    for _ in range(3):
        assert [memo(t) for t in texts] == [count_tokens(t) for t in texts]
    assert all(encoder.calls[t] == 1 for t in texts)
    # an equal string built anew is the same text
    assert memo("".join(list(texts[0]))) == count_tokens(texts[0])
    assert encoder.calls[texts[0]] == 1


def test_short_texts_are_counted_each_time_and_not_held() -> None:
    encoder = CountingEncoder()
    memo = CountMemo(encoder)
    short = "x = 1\n" * ((MIN_CHARS - 1) // 6)
    assert len(short) < MIN_CHARS
    assert memo(short) == memo(short) == count_tokens(short)
    assert memo("") == 0
    assert encoder.calls[short] == 2
    assert memo.held_chars == 0


def test_held_text_stays_under_the_bound_least_recently_used_out() -> None:
    encoder = CountingEncoder()
    memo = CountMemo(encoder, max_held_chars=1_000)
    first, second, third, fourth, fifth = (text(i, 300) for i in range(5))
    for t in (first, second, third):
        memo(t)
    memo(first)  # used again: now the most recent
    memo(fourth)  # 1,200 characters: the least recently used (second) goes
    assert memo.held_chars == 900
    memo(first)
    memo(second)
    assert encoder.calls[first] == 1
    assert encoder.calls[second] == 2
    memo(fifth)
    assert memo.held_chars <= 1_000
    huge = text(9, 1_500)  # larger than the whole bound: counted, never held
    assert memo(huge) == memo(huge) == count_tokens(huge)
    assert encoder.calls[huge] == 2
    assert memo.held_chars <= 1_000


def test_threads_sharing_it_get_exact_counts() -> None:
    memo = CountMemo(count_tokens, max_held_chars=5_000)
    texts = [text(i % 40, 100 + i % 7) for i in range(400)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(memo, texts))
    assert got == [count_tokens(t) for t in texts]
    assert memo.held_chars <= 5_000
