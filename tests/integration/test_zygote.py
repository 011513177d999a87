"""The zygote's contract that the crash tests lean on: once `start` returns a pid, the job's
output files exist, so a kill at any moment after it leaves them readable."""

from __future__ import annotations

import signal
from pathlib import Path

from tests.conftest import child_env
from tests.integration.zygote import Zygote

JOBS = 10


def test_a_job_killed_as_soon_as_its_pid_is_known_leaves_its_output_files(
    tmp_path: Path,
) -> None:
    zygote = Zygote(child_env(tmp_path))
    try:
        for n in range(JOBS):
            out, err = tmp_path / f"job-{n}.out", tmp_path / f"job-{n}.err"
            pid = zygote.start(["memory-writer", str(tmp_path / f"data-{n}"), "0"], out, err)
            assert zygote.kill(pid) == -signal.SIGKILL
            assert out.read_text() == "" and err.read_text() == ""
    finally:
        zygote.close()
