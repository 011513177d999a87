"""git-source credentials travel in git's environment, never its argv (issue 18 item 12).

A real git fetches over HTTP from a loopback server that demands Basic auth (git's dumb HTTP
protocol over a bare repository's files, so in full: it has no shallow fetch). `git` on PATH
is a wrapper that records each command line it is given (what /proc/<pid>/cmdline would
show) before running the real git.
"""

from __future__ import annotations

import base64
import http.server
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from schemas.topics import CATALOGUE
from streams.eventlog.memory import MemoryEventLog
from streams.sources.git_credentials import GitCredentials, split_credentials
from streams.sources.git_poller import GitPoller, GitSource

pytestmark = pytest.mark.anyio

USER, SECRET = "ci-bot", "tok3n-Zq9/x+y"  # '/' and '+' travel percent-encoded in a URL


def run(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def served_repo(tmp_path: Path) -> Iterator[tuple[str, list[str]]]:
    """(base URL of a Basic-auth HTTP server over a bare repository, authorizations seen)."""
    work = tmp_path / "work"
    work.mkdir()
    run("init", "-q", "-b", "main", cwd=work)
    (work / "app.py").write_text("print('hello')\n")
    run("add", ".", cwd=work)
    run("-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "one", cwd=work)
    root = tmp_path / "srv"
    root.mkdir()
    run("clone", "-q", "--bare", str(work), str(root / "repo.git"), cwd=tmp_path)
    run("update-server-info", cwd=root / "repo.git")
    expected = "Basic " + base64.b64encode(f"{USER}:{SECRET}".encode()).decode()
    seen: list[str] = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(root), **kwargs)  # type: ignore[arg-type]

        def do_GET(self) -> None:
            auth = self.headers.get("Authorization", "")
            seen.append(auth)
            if auth != expected:
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="git"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.path = self.path.split("?", 1)[0]  # dumb protocol: plain files
            super().do_GET()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.server_port}/repo.git", seen
    finally:
        server.shutdown()
        thread.join()


@pytest.fixture
def recorded_argv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `git` first on PATH that appends its argv (NUL-separated, one line per call)."""
    real = shutil.which("git")
    assert real is not None
    bindir = tmp_path / "bin"
    bindir.mkdir()
    record = tmp_path / "argv.log"
    wrapper = bindir / "git"
    wrapper.write_text(f'#!/bin/sh\nprintf "%s\\0" "$@" >> {record}\necho >> {record}\n')
    wrapper.write_text(wrapper.read_text() + f'exec {real} "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
    return record


@pytest.mark.parametrize("where", ["url", "settings"])
async def test_the_fetch_authenticates_without_the_secret_in_any_argv(
    served_repo: tuple[str, list[str]], recorded_argv: Path, tmp_path: Path, where: str
) -> None:
    base, seen = served_repo
    if where == "url":
        encoded = SECRET.replace("/", "%2F").replace("+", "%2B")
        source = GitSource("demo", f"http://{USER}:{encoded}@{base}", "main", depth=None)
    else:
        source = GitSource(
            "demo", f"http://{base}", "main", depth=None, credentials=GitCredentials(USER, SECRET)
        )
    log = MemoryEventLog()
    await log.create_topics(CATALOGUE)
    poller = GitPoller(log, source, tmp_path / "staging", dict(os.environ))
    await poller.register()
    result = await poller.poll_once()
    assert result.status == "published", result.error
    assert result.added == ["app.py"]
    assert any(auth.startswith("Basic ") for auth in seen)  # the server did demand and get it
    argv = recorded_argv.read_bytes()
    assert b"fetch" in argv
    for leaked in (SECRET, SECRET.replace("/", "%2F"), "tok3n"):
        assert leaked.encode() not in argv


def test_split_credentials() -> None:
    url, creds = split_credentials("https://x-token:p%40ss@example.com/r.git")
    assert url == "https://example.com/r.git" and creds == GitCredentials("x-token", "p@ss")
    url, creds = split_credentials("https://ghp_token@example.com/r.git")  # a token as user
    assert url == "https://example.com/r.git" and creds == GitCredentials("ghp_token", "")
    assert split_credentials("ssh://git@example.com/r.git") == ("ssh://git@example.com/r.git", None)
    assert split_credentials("ssh://git:pw@example.com/r.git") == (
        "ssh://git@example.com/r.git",
        None,
    )
    assert split_credentials("file:///srv/r.git") == ("file:///srv/r.git", None)
    assert "p@ss" not in repr(GitCredentials("u", "p@ss"))
