"""Credentials never leave the process: logs, errors and results are redacted."""

from __future__ import annotations

import logging
import random

import pytest

from streams.redact import RedactingFilter, redact


@pytest.mark.parametrize(
    ("raw", "secret"),
    [
        ("fetch https://x-access-token:ghp_abc123@github.com/o/r.git failed", "ghp_abc123"),
        ("git@ssh://deploy:hunter2@example.org/repo", "hunter2"),
        ("Authorization: Bearer sk-live-0123456789", "sk-live-0123456789"),
        ("GET /x?access_token=tok999&y=1", "tok999"),
        ("https://user@host/path", "user@"),
        # a QA pass: these came back in full (a `/` or `@` in the password, no user, no
        # scheme, and two more query parameters)
        ("postgres://admin:wJalrXUtnrFDI/K7MDENG@db.internal:5432/app", "K7MDENG"),
        ("https://deploy:p@ssAtPASS@git.example.com/r", "ssAtPASS"),
        ("redis://:redispass33@cache:6379/0", "redispass33"),
        ("url = '//user:protorelpass99@host/path'", "protorelpass99"),
        ("GET /x?api_key=APIKEYQP555&client_secret=CSQP222", "QP555"),
        ("GET /x?api_key=APIKEYQP555&client_secret=CSQP222", "CSQP222"),
    ],
)
def test_secrets_are_removed(raw: str, secret: str) -> None:
    cleaned = redact(raw)
    assert secret not in cleaned and "***" in cleaned


def test_plain_text_is_untouched() -> None:
    for text in ("a = b", "email me at dev@example.org", "x@y", "k=v&z=1"):
        assert redact(text) == text
    # a port is no password, a path's `@` no userinfo, a comment's `//` no URL
    for text in (
        "http://localhost:3000/@vite/client",
        "https://registry.npmjs.org/@babel/core",
        "// TODO: ask@bob",
    ):
        assert redact(text) == text, text


def test_a_masked_query_value_keeps_the_code_around_it() -> None:
    """The value stops at a quote: `?password=x";` kept its `";` no more."""
    assert redact('u = "https://h/x?password=PWQP444";') == 'u = "https://h/x?password=***";'


def test_memory_refuses_what_redaction_masks() -> None:
    from processors.memory_guards import has_credential_url

    for text in ("postgres://admin:wJalr/K7@db/app", "redis://:pw33@cache", "//u:p@h/x"):
        assert has_credential_url(text), text
    for text in ("https://u@github.com/r", "http://localhost:3000/@vite/client"):
        assert not has_credential_url(text), text
    # prose about bearer tokens, in a query or a docstring, is not a credential
    for text in ("verify bearer token", '"""Verify a Bearer Token."""', "bearer tokens expire"):
        assert redact(text) == text
    for text in ("Bearer abcdefghijklmnop", "bearer Abc123", "Bearer eyJhbGciOi.x"):
        assert "***" not in text and redact(text).endswith("***"), text


def test_logging_filter_redacts_messages_and_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("redact-test")
    handler = caplog.handler
    handler.addFilter(RedactingFilter())
    try:
        logger.warning("cloning %s", "https://bot:s3cr3t@example.com/r.git")
        try:
            raise RuntimeError("auth failed for https://bot:s3cr3t@example.com")
        except RuntimeError:
            logger.exception("boom")
    finally:
        handler.removeFilter(handler.filters[-1])
    text = caplog.text
    assert "s3cr3t" not in text and "https://***@example.com" in text


def test_structured_values_are_redacted_without_breaking_them() -> None:
    from streams.redact import redact_values

    payload = {"a": ["ftp://", "x@y"], "url": "https://u:p@h/r", "n": 3, "none": None}
    assert redact_values(payload) == {
        "a": ["ftp://", "x@y"],
        "url": "https://***@h/r",
        "n": 3,
        "none": None,
    }


def test_the_cheap_checks_before_each_pattern_change_nothing() -> None:
    """`redact` runs a pattern only when the text holds what a match needs (`@` and `//`
    for URL userinfo); the answer is the one running every pattern gives."""
    from processors.secrets import QUERY_SECRET as _QUERY
    from processors.secrets import USERINFO as _USERINFO
    from streams.redact import _BEARER

    pieces = ["https://u:p@h/x", "@Override", "a=b", "?token=x", "Bearer abcdef", "://", "@", " "]
    pieces += ["git@ssh://d:h@e.org/r", "mailto:a@b.c", "x://@", "&password=", "\n", "HTTPS://"]
    pieces += ["//", ":", "p/w", '"']
    rng = random.Random(3)
    for _ in range(2000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        every = _USERINFO.sub(r"\g<scheme>***@", text)
        every = _QUERY.sub(r"\1***", _BEARER.sub(r"\1***", every))
        assert redact(text) == every, text


@pytest.mark.parametrize("scheme", ["Bearer", "bearer", "BEARER", "BeArEr", "bEARER"])
def test_a_bearer_token_is_redacted_whatever_its_case(scheme: str) -> None:
    assert redact(f"Authorization: {scheme} abcd1234secret") == f"Authorization: {scheme} ***"
