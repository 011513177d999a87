"""`index` through a live server says what the owner's pass read and reports no figure it
did not measure (QA on logrus: `reading files: 0/?` while the owner read 64 files, and
`workersPeakRssMiB: 0.0`, this process's children, which did none of the work)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ServeProcess, child_env, cli_command

pytestmark = pytest.mark.slow  # a server and a second CLI process

FILES = 40


def test_index_through_a_server_reports_the_owners_reading(tmp_path: Path) -> None:
    repo = tmp_path / "ws" / "many"
    repo.mkdir(parents=True)
    for n in range(FILES):
        (repo / f"m{n}.py").write_text(f"def f{n}():\n    return {n}\n")
    data = tmp_path / "data"
    server = ServeProcess(repo, data)
    try:
        run = subprocess.run(
            cli_command("index", str(repo)),
            env=child_env(data),
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        server.stop()
    assert run.returncode == 0, run.stderr
    assert "indexing through it" in run.stderr
    reading = re.findall(r"reading files: (\d+)/(\S+) ", run.stderr)
    assert reading and reading[-1] == (str(FILES), str(FILES)), run.stderr
    answer = json.loads(run.stdout)
    assert answer["status"] == "Completed" and answer["filesScanned"] == FILES
    assert "workersPeakRssMiB" not in answer and "peakRssMiB" not in answer, answer
