"""Unreadable files and directories are reported, never skipped without a word (issue 24
item 10): a count and the paths in the job, a warning naming them, and a repository whose
root cannot be read fails instead of completing with 0 files.

Root reads through chmod 000, so as root the CLI runs without CAP_DAC_OVERRIDE and
CAP_DAC_READ_SEARCH (util-linux `setpriv`), the way an ordinary user would."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import child_env, cli_command, write_sample_repo

SETPRIV = shutil.which("setpriv")
pytestmark = pytest.mark.skipif(
    os.geteuid() == 0 and SETPRIV is None, reason="root reads chmod 000; setpriv is needed"
)


def index_as_a_user(repo: Path, data: Path) -> subprocess.CompletedProcess[str]:
    command = cli_command("index", str(repo))
    if os.geteuid() == 0:
        assert SETPRIV is not None
        command = [SETPRIV, "--bounding-set=-dac_override,-dac_read_search", *command]
    return subprocess.run(command, env=child_env(data), capture_output=True, text=True, timeout=180)


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[list[Path]]:
    """Paths to chmod 000; their modes are restored so tmp_path can be cleaned up."""
    paths: list[Path] = []
    yield paths
    for path in paths:
        path.chmod(0o755)


@pytest.mark.slow  # index through the CLI as an unprivileged user
def test_unreadable_files_and_directories_are_counted_and_named(
    tmp_path: Path, locked: list[Path]
) -> None:
    repo = write_sample_repo(tmp_path / "ws" / "sample")
    (repo / "private").mkdir()
    (repo / "private" / "keys.py").write_text("SECRET = 1\n")
    (repo / "src" / "billing" / "locked.py").write_text("def hidden(): pass\n")
    locked += [repo / "private", repo / "src" / "billing" / "locked.py"]
    for path in locked:
        path.chmod(0)
    run = index_as_a_user(repo, tmp_path / "data")
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout)
    assert result["status"] == "Completed"
    assert result["filesUnreadable"] == 2
    assert set(result["unreadablePaths"]) == {"private/", "src/billing/locked.py"}
    warnings = [line for line in run.stderr.splitlines() if " WARNING " in line]
    assert any("private/" in w and "src/billing/locked.py" in w for w in warnings), run.stderr
    assert result["filesIndexed"] >= 5  # the readable rest is indexed


def test_an_unreadable_repository_fails_with_the_reason(tmp_path: Path, locked: list[Path]) -> None:
    repo = write_sample_repo(tmp_path / "ws" / "sample")
    locked.append(repo)
    repo.chmod(0)
    run = index_as_a_user(repo, tmp_path / "data")
    assert run.returncode != 0
    result = json.loads(run.stdout)
    assert result["status"] == "Failed" and "cannot be read" in result["error"], result
    assert "Traceback" not in run.stderr
    errors = [line for line in run.stderr.splitlines() if line.strip() and " INFO " not in line]
    assert len(errors) == 1 and "cannot be read" in errors[0], run.stderr
