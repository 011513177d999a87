"""A corrupt or deleted views database is rebuilt from the log automatically."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import child_env, cli_command


def index(repo: Path, data: Path) -> dict[str, object]:
    proc = subprocess.run(
        cli_command("index", str(repo)),
        env=child_env(data),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    result: dict[str, object] = json.loads(proc.stdout)
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
