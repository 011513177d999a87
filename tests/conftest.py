"""Shared fixtures: sample repositories and a real repocontext process to talk MCP to."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
# Every test in these folders gets the marker, so `-m "not kafka and not deploy"` leaves out
# the ones that need Java + Maven (a real broker) or Go (kustomize, kubeconform): docs/testing.md
MARKERS_BY_FOLDER = {"kafka": "kafka", "deploy": "deploy"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    tests_dir = Path(__file__).resolve().parent
    for item in items:
        path = item.path.resolve()
        for folder, marker in MARKERS_BY_FOLDER.items():
            if path.is_relative_to(tests_dir / folder):
                item.add_marker(marker)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def write_sample_repo(root: Path) -> Path:
    """A small repository with code, docs, a binary, an invalid-UTF-8 and a huge file."""
    (root / "src" / "billing").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "node_modules" / "dep").mkdir(parents=True)
    (root / ".gitignore").write_text("node_modules/\n*.log\n")
    (root / "src" / "billing" / "invoice.py").write_text(
        "class InvoiceCalculator:\n"
        "    def compute_total(self, lines):\n"
        "        return sum(line.amount for line in lines)\n"
    )
    (root / "src" / "billing" / "ledger.py").write_text(
        "def post_entry(ledger, entry):\n    ledger.append(entry)\n"
    )
    (root / "src" / "httpServer.ts").write_text(
        "export function startHttpServer(port: number) { return port; }\n"
    )
    (root / "docs" / "guide.md").write_text("# Guide\nHow to reconcile the quarterly ledger.\n")
    (root / "node_modules" / "dep" / "index.js").write_text("module.exports = 'ignoredtoken';\n")
    (root / "debug.log").write_text("ignoredlogline\n")
    (root / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00binarytoken")
    (root / "latin1.txt").write_bytes(b"caf\xe9 zanzibarword \xff\xfe end\n")
    (root / "huge.txt").write_text("hugefilemarker " + "x" * 200_000 + " tailmarker\n")
    return root


@pytest.fixture
def sample_repo(tmp_path: Path) -> Path:
    return write_sample_repo(tmp_path / "workspace" / "sample")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cli_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "repocontext.cli", *args]


def child_env(data_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["REPOCONTEXT_DATA_DIR"] = str(data_dir)
    env["PYTHONUNBUFFERED"] = "1"
    # Keyword-only unless a test asks for the vector plane (the local model costs CPU).
    env.setdefault("REPOCONTEXT_EMBEDDER", "none")
    return env


class ServeProcess:
    """`repocontext serve` on a free loopback port, stopped at teardown."""

    def __init__(
        self, path: Path, data_dir: Path, *extra: str, env: dict[str, str] | None = None
    ) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = data_dir.parent / f"serve-{self.port}.log"
        self._log = open(self.log_path, "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(
            cli_command("serve", str(path), "--port", str(self.port), *extra),
            env={**child_env(data_dir), **(env or {})},
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        self.wait_live()

    def wait_live(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"serve exited: {self.log_path.read_text()[-3000:]}")
            try:
                if httpx.get(self.base + "/health/live", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise TimeoutError(f"serve did not become live: {self.log_path.read_text()[-3000:]}")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._log.close()


@pytest.fixture
def serve_process(sample_repo: Path, tmp_path: Path) -> Iterator[ServeProcess]:
    server = ServeProcess(sample_repo, tmp_path / "data")
    yield server
    server.stop()
