"""A message pasted from a log line, its level in brackets (`[ERROR]`, `[CRITICAL]`) after the
line's bracketed date and process id as Python's logging and gunicorn print them, is a pasted
error: `[2026-12-07 10:00:00 +0000] [1234] [ERROR] Connection in use: ('0.0.0.0', 8000)`.
QA on benoitc/gunicorn: both that line and `[ERROR] Connection in use: ('0.0.0.0', 8000)` asked
for no file, and sock.py, writing `log.error("Connection in use: %s", str(addr))`, was not in
the first eight (http2/connection.py led)."""

from __future__ import annotations

import pytest

from query_api.retrieval.pasted_message import files_writing_message, message_queries

TEXTS = {
    "app/sock.py": 'log.error("Connection in use: %s", str(addr))',
    "app/http2/connection.py": "# one connection in the pool, in use until closed",
}


def _paths_matching(match: str, limit: int) -> list[str]:
    phrase = match.partition(" : ")[2].strip('"')
    return [p for p, text in TEXTS.items() if phrase in text.lower()][:limit]


@pytest.mark.parametrize(
    "query",
    [
        "[ERROR] Connection in use: ('0.0.0.0', 8000)",
        "[2026-12-07 10:00:00 +0000] [1234] [ERROR] Connection in use: ('0.0.0.0', 8000)",
        "[2026-12-07 10:00:00 +0000] [1234] [CRITICAL] Connection in use: ('0.0.0.0', 8000)",
    ],
)
def test_a_log_line_asks_for_the_file_writing_its_message(query: str) -> None:
    assert 'body_terms : "connection in use"' in message_queries(query)
    assert files_writing_message(query, _paths_matching) == {"app/sock.py"}


def test_a_bracketed_word_that_is_no_level_is_no_message() -> None:
    assert message_queries("[docs] [1234] Connection in use is not reported") == []
    assert message_queries("Connection in use: ('0.0.0.0', 8000)") == []
