"""The indexing benchmark (`make bench`, `python -m tests.bench.indexing`) lives outside the
product (issue 19 item 1): it still prints each step and the index's own progress as it goes
(issue 24 item 11), and refuses a bad option naming it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import child_env

ROOT = Path(__file__).resolve().parents[2]


def run_bench(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tests.bench.indexing", *args],
        cwd=ROOT,
        env=child_env(data),
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow  # the whole benchmark, once, on a 20-file corpus
def test_bench_prints_each_step_and_the_index_progress_as_it_goes(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    for n in range(20):  # the live measures edit and query files under django/
        target = corpus / "django" / f"mod{n}.py"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"def view_{n}(request, slug):\n    return render(request, slug)\n")
    run = run_bench(tmp_path / "data", "--runs", "1", "--corpus", str(corpus))
    assert run.returncode == 0, run.stderr[-2000:]
    said = run.stderr
    steps = ["floor pass", "cold index", "restart", "replay", "live measures"]
    assert all(step in said for step in steps), said
    positions = [said.index(step) for step in steps]
    assert positions == sorted(positions)
    # the cold index's own progress comes through, between the steps that frame it
    cold = said.index("cold index")
    assert cold < said.index("progress indexing corpus: reading files") < said.index("restart")
    assert json.loads(run.stdout)["files"] == 20


def test_a_bad_option_is_refused_by_name(tmp_path: Path) -> None:
    run = run_bench(tmp_path / "data", "--runs", "nan")
    assert run.returncode == 2 and "--runs" in run.stderr and "Traceback" not in run.stderr


def test_the_product_does_not_carry_the_benchmark() -> None:
    assert not list((ROOT / "repocontext").glob("bench*.py"))
    product = [*ROOT.glob("repocontext/*.py"), *ROOT.glob("query_api/**/*.py")]
    assert not [p for p in product if "tests.bench" in p.read_text()]
