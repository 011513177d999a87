"""What `repocontext serve` keeps private (issue 18 item 12): metrics and readiness detail
behind a token when the setting asks for it, and a data directory only its user can read."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import httpx
import pytest

from tests.conftest import ServeProcess, write_sample_repo

TOKEN = "metrics-reader-token-31f"


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.slow  # servers with and without the metrics token
def test_metrics_and_ready_detail_need_a_token_and_the_data_dir_is_private(
    tmp_path: Path,
) -> None:
    repo = write_sample_repo(tmp_path / "ws" / "sample")
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    data.chmod(0o755)  # as an older version left it
    leftover = data / "left-by-an-older-version.db"
    leftover.write_text("x")
    leftover.chmod(0o644)
    auth = tmp_path / "tokens.json"
    grants = {"principal": "ops", "token": TOKEN, "grants": {"*": ["read"]}}
    auth.write_text(json.dumps({"tokens": [grants]}))
    auth.chmod(0o600)
    server = ServeProcess(
        repo,
        data,
        env={"REPOCONTEXT_AUTH_FILE": str(auth), "REPOCONTEXT_REQUIRE_TOKEN_FOR_METRICS": "true"},
    )
    try:
        bearer = {"Authorization": f"Bearer {TOKEN}"}
        assert httpx.get(server.base + "/health/live").status_code == 200
        assert httpx.get(server.base + "/metrics").status_code == 401
        assert (
            httpx.get(server.base + "/metrics", headers={"Authorization": "Bearer x"}).status_code
            == 401
        )
        shown = httpx.get(server.base + "/metrics", headers=bearer)
        assert shown.status_code == 200 and "repocontext" in shown.text
        bare = httpx.get(server.base + "/health/ready")
        assert bare.status_code in (200, 503)
        assert set(bare.json()) == {"ready"}  # a probe reads the status, nothing else
        detail = httpx.get(server.base + "/health/ready", headers=bearer)
        assert detail.status_code == bare.status_code and "components" in detail.json()
    finally:
        server.stop()
    assert mode_of(data) == 0o700
    for name in ("log.db", "views.db", leftover.name):
        assert mode_of(data / name) == 0o600, name
    private = [p for p in data.rglob("*") if not p.is_symlink() and mode_of(p) & 0o077]
    assert not private, private
    assert "was readable by group or others" in server.log_path.read_text()


@pytest.mark.slow
def test_metrics_stay_open_by_default(serve_process: ServeProcess) -> None:
    assert httpx.get(serve_process.base + "/metrics").status_code == 200
    assert "components" in httpx.get(serve_process.base + "/health/ready").json()
