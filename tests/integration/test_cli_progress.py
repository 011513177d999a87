"""Long commands report progress by stage, with counts, rate and ETA (issue 24 item 11), and
`index --vectors` embeds before it exits; `eval` reports as it goes too. Each runs the real
CLI; off a terminal the progress is log lines on stderr."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import child_env, cli_command, write_sample_repo
from tests.integration.test_eval import commit, git, invoice_repo

STAGE = re.compile(
    r"progress (?P<task>[^:]+): (?P<stage>[a-z ]+): (?P<done>\d+)/(?P<total>\d+|\?) \("
)


def run_cli(data: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cli_command(*args),
        env={**child_env(data), **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


def stages(stderr: str) -> dict[str, tuple[int, int]]:
    """The last count each stage reported."""
    last: dict[str, tuple[int, int]] = {}
    for match in STAGE.finditer(stderr):
        assert match["total"] != "?", match[0]
        last[match["stage"]] = (int(match["done"]), int(match["total"]))
    return last


@pytest.mark.slow  # index and replay through the CLI
def test_index_and_replay_report_each_stage(tmp_path: Path) -> None:
    repo = write_sample_repo(tmp_path / "ws" / "sample")
    for n in range(40):
        (repo / "src" / f"mod{n}.py").write_text(f"def handler_{n}(x):\n    return x + {n}\n")
    data = tmp_path / "data"
    index = run_cli(data, "index", str(repo))
    assert index.returncode == 0, index.stderr[-2000:]
    seen = stages(index.stderr)
    assert list(seen) == ["reading files", "processing records"], index.stderr
    files = json.loads(index.stdout)["filesScanned"]
    assert seen["reading files"] == (files, files)
    done, total = seen["processing records"]
    assert done == total > files  # every published record was processed before exit
    assert "/s, eta " in index.stderr

    replay = run_cli(data, "replay")
    assert replay.returncode == 0, replay.stderr[-2000:]
    seen = stages(replay.stderr)
    done, total = seen["replaying records"]
    # the work of this replay only: the processors were done, the views re-read every record
    assert done == total == json.loads(replay.stdout)["replayedRecords"] > 0


@pytest.mark.slow  # indexes and evaluates through the CLI
def test_eval_reports_reading_processing_and_scoring(tmp_path: Path) -> None:
    repo = tmp_path / "shop"
    repo.mkdir()
    git(repo, "init", "-q")
    for n, (name, subject) in enumerate(
        [
            ("invoices", "Add invoice PDF rendering for orders"),
            ("payments", "Support refunding card payments"),
            ("shipping", "Compute shipping rates per carrier"),
        ]
    ):
        body = f"def {name}_handler(order):\n    return order.total + {n}\n"
        commit(repo, {f"shop/{name}.py": body}, subject)
    run = run_cli(tmp_path / "data", "eval", str(repo))
    assert run.returncode == 0, run.stderr[-2000:]
    seen = stages(run.stderr)
    assert list(seen) == ["reading files", "processing records", "scoring cases"], run.stderr
    cases = json.loads(run.stdout)["cases"]
    assert cases == 3 and seen["scoring cases"] == (cases, cases)


@pytest.mark.slow  # indexes through the CLI
def test_a_first_search_reports_its_indexing(tmp_path: Path) -> None:
    repo = write_sample_repo(tmp_path / "ws" / "sample")
    run = run_cli(tmp_path / "data", "search", str(repo), "invoice", "-k", "3")
    assert run.returncode == 0, run.stderr[-2000:]
    seen = stages(run.stderr)
    assert list(seen) == ["reading files", "processing records"], run.stderr
    done, total = seen["processing records"]
    assert done == total > 0
    assert json.loads(run.stdout)["hits"]


def test_index_vectors_needs_an_embedder(tmp_path: Path) -> None:
    repo = write_sample_repo(tmp_path / "ws" / "sample")
    run = run_cli(tmp_path / "data", "index", str(repo), "--vectors")
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2 and len(lines) == 1 and "--vectors needs an embedder" in lines[0]
    # a wrong command line writes nothing: the data directory was created before the refusal
    assert not (tmp_path / "data").exists()


@pytest.mark.slow
def test_index_vectors_embeds_before_exit_so_eval_measures_the_vector_rungs(
    tmp_path: Path,
) -> None:
    repo = invoice_repo(tmp_path)
    commit(
        repo,
        {"shop/payments.py": "def refund_card_payment(payment):\n    payment.refund()\n"},
        "Support refunding card payments",
    )
    data = tmp_path / "data"
    index = run_cli(data, "index", str(repo), "--vectors", REPOCONTEXT_EMBEDDER="local")
    assert index.returncode == 0, index.stderr[-2000:]
    passages = json.loads(index.stdout)["vectorPassages"]
    assert passages["embedded"] > 0
    # progress counts passages, the unit the work moves in, not the vector step's records
    done, total = stages(index.stderr)["embedding passages"]
    assert done == total == passages["embedded"] + passages["reused"]
    result = json.loads(run_cli(data, "eval", str(repo), REPOCONTEXT_EMBEDDER="local").stdout)
    assert {r["rung"] for r in result["rungs"]} == {"keyword", "vector", "hybrid"}, result
    assert "skippedRungs" not in result, result  # none skipped: the empty list is left out
