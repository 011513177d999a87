"""SIGKILL the indexer at random points; after restart the views equal an uninterrupted run."""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from streams.stores.views.handlers import default_registry
from streams.stores.views.packing import register_dictionaries, unpack_text
from streams.stores.views.search import keyword_hits
from tests.conftest import child_env, cli_command

FILES = 2000


def make_corpus(root: Path) -> Path:
    rng = random.Random(7)
    words = [f"ident{n}" for n in range(400)] + ["parseConfig", "HttpClient", "utf8Writer"]
    for n in range(FILES):
        folder = root / f"pkg{n % 17}" / f"sub{n % 5}"
        folder.mkdir(parents=True, exist_ok=True)
        body = "\n".join(
            f"def fn_{n}_{line}({rng.choice(words)}): return {rng.choice(words)}"
            for line in range(rng.randint(5, 60))
        )
        (folder / f"module_{n}.py").write_text(body + "\n")
    (root / "binary.bin").write_bytes(b"\x00\x01" * 100)
    (root / "bad-utf8.txt").write_bytes(b"ok \xff\xfe still ok\n")
    return root


def snapshot(data_dir: Path) -> dict[str, Any]:
    """Everything the views hold, minus wall-clock stamps (they differ run to run)."""
    conn = sqlite3.connect(data_dir / "views.db")
    register_dictionaries(conn, str(data_dir / "views.db"))
    try:
        files = conn.execute(
            "SELECT repo_id, path, digest, language, size, line_count, mtime_ns, binary,"
            " truncated, decode_errors FROM files ORDER BY repo_id, path"
        ).fetchall()
        # a body as it reads back: its packed bytes name the dictionary of its language that
        # the batch it landed in found or made (views/packing.py), which batching decides
        content = [
            (repo_id, path, digest, unpack_text(body), truncated)
            for repo_id, path, digest, body, truncated in conn.execute(
                "SELECT repo_id, path, digest, body, truncated FROM content ORDER BY 1, 2"
            )
        ]
        repos = conn.execute("SELECT repo_id, source, root FROM repos ORDER BY 1").fetchall()
    finally:
        conn.close()
    from streams.stores.views.store import ViewStore

    with ViewStore(data_dir / "views.db", default_registry()) as views:
        searches = {
            q: [
                (h.path, round(h.score, 9), h.reasons) for h in keyword_hits(views, "corpus", q, 20)
            ]
            for q in ("parse config", "http client", "ident17 ident230", "utf8 writer", "ok")
        }
    return {"files": files, "content": content, "repos": repos, "searches": searches}


def index(corpus: Path, data_dir: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        cli_command("index", str(corpus)),
        env=child_env(data_dir),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def wait_for_work_to_start(proc: subprocess.Popen[bytes]) -> None:
    """Block until the indexer logs its first progress line (interpreter start-up is over)."""
    assert proc.stderr is not None
    for line in proc.stderr:
        if b"progress" in line:
            return


@pytest.mark.slow  # a crash loop: many SIGKILLs, each followed by a restart
def test_sigkill_at_random_points_resumes_to_the_same_views(tmp_path: Path) -> None:
    corpus = make_corpus(tmp_path / "corpus")
    baseline = index(corpus, tmp_path / "baseline")
    out, _ = baseline.communicate(timeout=300)
    assert baseline.returncode == 0, out
    work = json.loads(out)["seconds"]
    expected = snapshot(tmp_path / "baseline")
    assert len(expected["files"]) == FILES + 1  # the binary is excluded, bad UTF-8 kept

    rng = random.Random(20261130)
    kills = sequences = 0
    while kills < 20 and sequences < 20:
        sequences += 1
        crash_dir = tmp_path / f"crashed-{sequences}"
        while True:  # kill at random points until a run gets to finish on its own
            proc = index(corpus, crash_dir)
            wait_for_work_to_start(proc)
            time.sleep(rng.uniform(0.0, work * 0.4))
            if proc.poll() is not None:
                proc.communicate()
                break
            proc.send_signal(signal.SIGKILL)
            proc.communicate(timeout=60)
            kills += 1
        final = index(corpus, crash_dir)
        final.communicate(timeout=300)
        assert final.returncode == 0
        assert snapshot(crash_dir) == expected, f"sequence {sequences} diverged"
        assert dead_letters(crash_dir) == 0
    assert kills >= 20, f"only {kills} kills landed while the indexer ran"


def dead_letters(data_dir: Path) -> int:
    """A crash must never turn into a processing error."""
    log = sqlite3.connect(data_dir / "log.db")
    try:
        return int(
            log.execute(
                "SELECT count(*) FROM records WHERE topic = 'repocontext.deadletter.v1'"
            ).fetchone()[0]
        )
    finally:
        log.close()
