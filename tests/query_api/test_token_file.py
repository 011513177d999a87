"""The token file is validated whole (issue 18 item 11): shape, empty and whitespace tokens,
duplicates, headers that only Unicode whitespace makes match, and plaintext others can read."""

from __future__ import annotations

import hashlib
import json
import logging
import subprocess
from pathlib import Path
from typing import Any

import pytest

from query_api.access.auth import AuthConfigError, TokenTable
from tests.conftest import child_env, cli_command

TOKEN = "ci-token-0123456789"
GOOD: dict[str, Any] = {"principal": "ci", "token": TOKEN, "grants": {"*": ["read"]}}


def write(tmp_path: Path, payload: Any, mode: int = 0o600) -> Path:
    path = tmp_path / "tokens.json"
    path.write_text(payload if isinstance(payload, str) else json.dumps(payload))
    path.chmod(mode)
    return path


@pytest.mark.parametrize(
    ("payload", "says"),
    [
        ({"tokens": 5}, "`tokens`: Input should be a valid list"),
        ([], "Input should be a valid dictionary"),
        ({"tokens": [5]}, "`tokens.0`"),
        ({"tokens": [{"principal": "x", "token": ""}]}, "`tokens.0.token`"),
        ({"tokens": [{"principal": "x", "token": "   "}]}, "`tokens.0.token`"),
        ({"tokens": [{"principal": "x", "token": "\u00a0"}]}, "`tokens.0.token`"),
        ({"tokens": [{"principal": "x", "token": " padded-token "}]}, "`tokens.0.token`"),
        ({"tokens": [{"principal": "x", "token": 12345}]}, "`tokens.0.token`"),
        ({"tokens": [{"principal": "x"}]}, "exactly one of `token` or `sha256`"),
        ({"tokens": [{"principal": "x", "token": "t0123", "sha256": "0" * 64}]}, "exactly one"),
        ({"tokens": [{"principal": "x", "sha256": "abc"}]}, "`tokens.0.sha256`"),
        ({"tokens": [{"principal": " ", "token": "t0123"}]}, "`tokens.0.principal`"),
        ({"tokens": [{**GOOD, "grants": {"r": ["owner"]}}]}, "`tokens.0.grants.r.0`"),
        ({"tokens": [{**GOOD, "grants": {"r": "read"}}]}, "`tokens.0.grants.r`"),
        ({"tokens": [{**GOOD, "grant": {"r": ["read"]}}]}, "`tokens.0.grant`"),
        ({"tokens": []}, "defines no tokens"),
        ("{not json", "cannot read the token file"),
    ],
    ids=lambda v: json.dumps(v)[:40] if not isinstance(v, str) else v[:40],
)
def test_a_malformed_file_is_one_line_naming_the_entry(
    tmp_path: Path, payload: Any, says: str
) -> None:
    with pytest.raises(AuthConfigError) as refused:
        TokenTable.load(write(tmp_path, payload))
    message = str(refused.value)
    assert says in message, message
    assert "\n" not in message and "Traceback" not in message


def test_duplicate_tokens_are_refused_whether_plain_or_digest(tmp_path: Path) -> None:
    twice = {"tokens": [GOOD, {**GOOD, "principal": "admin", "grants": {"*": ["admin"]}}]}
    with pytest.raises(AuthConfigError, match=r"`tokens\.1` repeats the token of `tokens\.0`"):
        TokenTable.load(write(tmp_path, twice))
    digest = hashlib.sha256(TOKEN.encode()).hexdigest().upper()
    mixed = {"tokens": [GOOD, {"principal": "admin", "sha256": digest}]}
    with pytest.raises(AuthConfigError, match="repeats the token"):
        TokenTable.load(write(tmp_path, mixed))


def test_only_the_exact_token_authenticates(tmp_path: Path) -> None:
    table = TokenTable.load(write(tmp_path, {"tokens": [GOOD]}))
    assert table.authenticate("Bearer ci-token-0123456789") is not None
    assert table.authenticate("bearer  ci-token-0123456789\t") is not None  # HTTP whitespace
    for header in (
        "Bearer \u00a0",
        "Bearer ",
        "Bearer \u2003ci-token-0123456789",
        "Bearer ci-token-0123456789\u00a0",
        "Bearer ci-token-0123456789\x00",
        "Basic ci-token-0123456789",
        "",
    ):
        assert table.authenticate(header) is None, repr(header)


def test_plaintext_tokens_others_can_read_are_warned_about(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="query_api.access.auth")
    TokenTable.load(write(tmp_path, {"tokens": [GOOD]}, mode=0o600))
    assert not caplog.records
    TokenTable.load(write(tmp_path, {"tokens": [GOOD]}, mode=0o644))
    [record] = caplog.records
    assert "readable by group or others" in record.getMessage()
    assert TOKEN not in record.getMessage()
    caplog.clear()
    digest_only = {"tokens": [{"principal": "ci", "sha256": "ab" * 32}]}
    TokenTable.load(write(tmp_path, digest_only, mode=0o644))  # digests are no secret
    assert not caplog.records


@pytest.mark.slow  # starts `repocontext serve` once per malformed file
def test_serve_refuses_a_malformed_file_with_one_line_and_no_traceback(tmp_path: Path) -> None:
    auth = write(tmp_path, {"tokens": 5})
    done = subprocess.run(
        cli_command("serve", "--port", "0"),
        env={**child_env(tmp_path / "data"), "REPOCONTEXT_AUTH_FILE": str(auth)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 2, output
    assert "Traceback" not in output
    assert "`tokens`: Input should be a valid list" in output
