"""A corrupt, deleted or older-schema views database is rebuilt from the log automatically."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from streams.stores.views.schema import SCHEMA_VERSION
from tests.conftest import child_env, cli_command


def run_index(repo: Path, data: Path) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        cli_command("index", str(repo)),
        env=child_env(data),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc


def index(repo: Path, data: Path) -> dict[str, object]:
    result: dict[str, object] = json.loads(run_index(repo, data).stdout)
    return result


def search(repo: Path, data: Path, query: str) -> list[str]:
    proc = subprocess.run(
        cli_command("search", str(repo), query),
        env=child_env(data),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [hit["entry"]["path"] for hit in json.loads(proc.stdout)["hits"]]


@pytest.mark.slow  # rebuilds the views twice from the log
def test_corrupt_then_deleted_views_are_rebuilt(sample_repo: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    index(sample_repo, data)
    expected = search(sample_repo, data, "InvoiceCalculator ledger")
    views = data / "views.db"

    with views.open("r+b") as handle:  # scribble over pages past the header
        handle.seek(4096)
        handle.write(b"\xde\xad\xbe\xef" * 4096)
    for suffix in ("-wal", "-shm"):
        Path(str(views) + suffix).unlink(missing_ok=True)
    summary = index(sample_repo, data)
    assert summary["filesIndexed"] == 7
    assert search(sample_repo, data, "InvoiceCalculator ledger") == expected
    assert list(data.glob("views.db.corrupt-*")), "the damaged file is kept for inspection"

    views.unlink()
    index(sample_repo, data)
    assert search(sample_repo, data, "InvoiceCalculator ledger") == expected


@pytest.mark.slow  # indexes, then rebuilds the views from the log
def test_views_of_an_older_schema_are_rebuilt_with_progress(
    sample_repo: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    index(sample_repo, data)
    expected = search(sample_repo, data, "InvoiceCalculator ledger")
    conn = sqlite3.connect(data / "views.db")  # as the previous build left it
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    conn.close()

    stderr = run_index(sample_repo, data).stderr
    assert f"schema version {SCHEMA_VERSION - 1}, this build uses {SCHEMA_VERSION}" in stderr
    assert "views: rebuilding from the log" in stderr and "views: rebuilt from the log" in stderr
    assert search(sample_repo, data, "InvoiceCalculator ledger") == expected
    assert not list(data.glob("views.db.corrupt-*")), "not damage: nothing is kept aside"
