"""A server's URL in the settings (REPOCONTEXT_QDRANT_URL, REPOCONTEXT_EMBEDDER_URL) is checked
at start: `notaurl` was accepted and surfaced later as a connection error naming no setting."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from query_api.settings import Settings


@pytest.mark.parametrize("field", ["qdrant_url", "embedder_url"])
@pytest.mark.parametrize(
    "value", ["notaurl", "qdrant:6333", "ftp://qdrant:6333", "http:///x-no-host", "http://q:port"]
)
def test_a_server_url_that_is_none_is_refused_without_echoing_it(field: str, value: str) -> None:
    with pytest.raises(ValidationError, match=r"http:// or https:// URL|port") as refused:
        Settings.model_validate({field: value})
    # the message never echoes the value (a URL may carry a password); the CLI prints it alone
    assert all(value not in error["msg"] for error in refused.value.errors())


@pytest.mark.parametrize(
    "value", ["http://qdrant:6333", "https://q.example.com", "http://[::1]:6333/prefix"]
)
def test_a_server_url_is_accepted(value: str) -> None:
    assert Settings(qdrant_url=value).qdrant_url == value
