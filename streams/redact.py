"""Redaction of secrets from text that leaves the process (logs, errors, tool results).

Covers URL userinfo (`https://user:token@host` -> `https://***@host`; the patterns, shared
with memory's write guard, are in processors/secrets.py), bearer tokens and common token query
parameters. Pure string work, cheap enough for every log record.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from processors.secrets import QUERY_SECRET as _QUERY
from processors.secrets import USERINFO as _USERINFO

# a word after "bearer" (`verify a bearer token`, `Bearer Token` in a docstring) is prose, not
# a credential: up to 15 letters, lower case past the first (a sentence's stop may follow)
_BEARER = re.compile(
    r"((?i:bearer)\s+)(?![A-Za-z][a-z]{0,14}[.,;:!?]*(?![\w.~+/=-]))[A-Za-z0-9._~+/=-]{4,}"
)


def redact(text: str) -> str:
    """`text` with credentials replaced by `***`."""
    if "@" in text and "//" in text:  # the pattern tries a scheme at every letter: slow
        text = _USERINFO.sub(r"\g<scheme>***@", text)  # on long text that holds no URL
    if "bearer" in text.lower():  # any case: the pattern is case-insensitive
        text = _BEARER.sub(r"\1***", text)
    if "=" in text:
        text = _QUERY.sub(r"\1***", text)
    return text


def redact_values(value: Any) -> Any:
    """A copy of a JSON-like value with every string redacted (keys kept as they are)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: redact_values(v) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_values(v) for v in value]
    return value


class RedactingFilter(logging.Filter):
    """A logging filter that redacts the formatted message (and exception text) in place."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True
