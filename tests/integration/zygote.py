"""A pre-imported parent that forks processes to SIGKILL, so a kill costs no interpreter start.

`python -m tests.integration.zygote` reads one JSON job per stdin line
(`{"argv": [...], "env": {...}, "out": path, "err": path}`), forks a child that runs the
repocontext CLI (`argv`) or the memory writer (`argv[0] == "memory-writer"`) with stdout/stderr
in those files, prints `pid N`, waits for the child and prints `exit N STATUS` (a negative
status is the signal that ended it). The child is a real process running the real code path;
only the imports are shared.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import repocontext.app  # the expensive imports, done once before any fork
import repocontext.commands  # noqa: F401
from repocontext import cli
from tests.integration import memory_writer


def open_outputs(job: dict[str, Any]) -> tuple[int, int]:
    """The job's stdout/stderr files, created by the parent before it forks: once `pid N` is
    printed both files exist, so a test that kills the child at once can still read them."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
    return os.open(str(job["out"]), flags, 0o644), os.open(str(job["err"]), flags, 0o644)


def child(job: dict[str, Any], outputs: tuple[int, int]) -> int:
    os.environ.update({str(k): str(v) for k, v in (job.get("env") or {}).items()})
    for fd, target in zip((1, 2), outputs, strict=True):
        os.dup2(target, fd)
        os.close(target)
    sys.stdout = os.fdopen(1, "w", buffering=1)
    sys.stderr = os.fdopen(2, "w", buffering=1)
    argv = [str(a) for a in job["argv"]]
    if argv[0] == "memory-writer":
        asyncio.run(memory_writer.run(Path(argv[1]), int(argv[2])))
        return 0
    return cli.main(argv)


def main() -> None:
    for line in sys.stdin:
        job = json.loads(line)
        outputs = open_outputs(job)
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                code = child(job, outputs)
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        for target in outputs:
            os.close(target)
        print(f"pid {pid}", flush=True)
        _, status = os.waitpid(pid, 0)
        print(f"exit {pid} {os.waitstatus_to_exitcode(status)}", flush=True)


class Zygote:
    """The test side: start jobs, kill them, collect their exit status."""

    def __init__(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.integration.zygote"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def start(
        self, argv: list[str], out: Path, err: Path, env: dict[str, str] | None = None
    ) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        job = {"argv": argv, "env": env or {}, "out": str(out), "err": str(err)}
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline().split()
        assert line[:1] == ["pid"], f"the zygote said {line!r}"
        return int(line[1])

    def wait(self) -> int:
        """The exit status of the running job (negative: the signal that ended it)."""
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().split()
        assert line[:1] == ["exit"], f"the zygote said {line!r}"
        return int(line[2])

    def kill(self, pid: int) -> int:
        os.kill(pid, signal.SIGKILL)
        return self.wait()

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def wait_for_text(path: Path, needle: str, pid_alive: int, timeout: float = 60.0) -> bool:
    """Poll `path` until it contains `needle` (True) or the process is gone (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and needle in path.read_text(errors="replace"):
            return True
        try:
            os.kill(pid_alive, 0)
        except ProcessLookupError:
            return False
        time.sleep(0.005)
    raise TimeoutError(f"{needle!r} never appeared in {path}")


if __name__ == "__main__":
    main()
