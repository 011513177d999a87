"""Ctrl-C during a one-shot `index` exits 130 with no traceback, SIGTERM 143, and the next
`index` finds everything. A QA pass: the reconcile kept running while the interrupted command
closed the app, so it wrote to a closed log and logged `ingest of ... failed` with a
traceback; SIGTERM killed it outright (-15, a 'leaked semaphore objects' warning)."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import child_env, cli_command

pytestmark = pytest.mark.slow  # indexes a few thousand files twice

FILES = 4000


def many_files(root: Path) -> Path:
    for i in range(FILES):
        folder = root / f"pkg{i % 40}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"mod{i}.py").write_text(f"def function_{i}(x):\n    return x + {i}\n")
    return root


@pytest.mark.parametrize(
    ("stage", "sig", "code"),
    [
        ("reading files", signal.SIGINT, 130),
        ("processing records", signal.SIGINT, 130),
        ("processing records", signal.SIGTERM, 143),
    ],
)
def test_a_signal_mid_index_stops_it_without_a_traceback_and_loses_nothing(
    tmp_path: Path, stage: str, sig: signal.Signals, code: int
) -> None:
    repo, env = many_files(tmp_path / "repo"), child_env(tmp_path / "data")
    proc = subprocess.Popen(
        cli_command("index", str(repo)), env=env, stderr=subprocess.PIPE, text=True,
        stdout=subprocess.PIPE, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    assert proc.stderr is not None
    seen: list[str] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (line := proc.stderr.readline()):
        seen.append(line)
        if f"{stage}: " in line:
            break
    proc.send_signal(sig)
    _, rest = proc.communicate(timeout=60)
    stderr = "".join(seen) + rest
    assert proc.returncode == code, stderr[-3000:]
    assert "Traceback" not in stderr and "failed" not in stderr, stderr[-3000:]
    assert "leaked" not in stderr, stderr[-3000:]
    again = subprocess.run(
        cli_command("index", str(repo)), env=env, capture_output=True, text=True, timeout=300
    )
    result = json.loads(again.stdout)
    assert again.returncode == 0 and result["status"] == "Completed", again.stderr[-2000:]
    assert result["filesIndexed"] == FILES and result["deadLetters"] == 0
