"""The semantic plane, 813317c's passages against today's, side by side in one process:

    .venv/bin/python -m tests.bench.semantic_plane --repos koa,gin

Per repository of the localisation benchmark (its pinned checkouts), three systems are opened
from empty data directories, one after the other: `keyword` (no embedder), `old` (813317c's
processors/vectors.py: 700/100-char windows of every file plus one passage per symbol, and
one encoder thread, as then) and `new` (this tree). For old and new it reports the passages
embedded, passages per file, embedding passages/s, the time from opening to full vector
coverage and the process CPU seconds spent on it (HNSW build children included), then
R@1/R@10/MRR@10 of each system on the repository's benchmark cases (default = hybrid search).
Nothing here asserts a figure; the machine is shared, so CPU seconds say more than wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, Literal

from query_api.evaluation.scoring import score_case, summarise
from query_api.settings import Settings, default_data_dir
from repocontext.app import EmbeddedApp
from schemas import tools as t
from schemas.records import ContentRecord
from streams.embedders.base import EmbedResult, TextType
from streams.embedders.local import LocalEmbedder
from streams.vectors_step import VectorIndexer
from tests.bench.indexing import fetch_corpus
from tests.bench.localisation.cases import CASES_FILE, read_cases
from tests.bench.localisation.checkout import DEFAULT_CACHE, checkout
from tests.bench.localisation.repos import DEFAULT_MIRRORS, select
from tests.bench.localisation.system import RepocontextSystem
from tests.bench.passage_sample import (
    SAMPLE_SEED,
    RecordedPassages,
    SampleRate,
    encode_sample,
    wordpieces,
)

ROOT = Path(__file__).resolve().parents[2]
BASELINE = "813317c"
Provider = Literal["local", "http", "none"]


def _baseline_vectors() -> Any:
    """813317c's processors/vectors.py, loaded from git as a module of its own."""
    source = subprocess.run(
        ["git", "show", f"{BASELINE}:processors/vectors.py"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    spec = importlib.util.spec_from_loader("baseline_vectors", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    exec(compile(source, "baseline_vectors", "exec"), module.__dict__)
    return module


@contextmanager
def baseline_passages() -> Iterator[None]:
    """The vector step derives passages as 813317c did (windows of every file + symbols)."""
    old = _baseline_vectors()
    saved = VectorIndexer._passages

    def passages(self: VectorIndexer, kind: str, repo_id: str, path: str, event: object) -> Any:
        if event is None:
            return []
        if isinstance(event, ContentRecord):
            return old.file_passages(repo_id, path, event.body) or [
                old.contentless_marker(repo_id, path)
            ]
        symbols = getattr(event, "symbols", None) or []
        return [old.symbol_passage(repo_id, path, s.fq_name, s.kind, s.signature) for s in symbols]

    VectorIndexer._passages = passages  # type: ignore[method-assign]
    try:
        yield
    finally:
        VectorIndexer._passages = saved  # type: ignore[method-assign]


class EmbedClock:
    """Wall seconds and passages of every passage batch the local embedder runs."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.passages = 0
        self.workers: list[int] = []
        self.texts: list[str] = []  # for the wordpiece count, taken outside the timed run

    @contextmanager
    def installed(self) -> Iterator[None]:
        saved = LocalEmbedder.embed

        def embed(emb: LocalEmbedder, texts: list[str], kind: TextType = "passage") -> EmbedResult:
            began = time.perf_counter()
            result = saved(emb, texts, kind)
            if kind == "passage":
                self.seconds += time.perf_counter() - began
                self.passages += len(texts)
                self.texts += texts
                self.workers.append(getattr(emb, "last_workers", 1) or 1)
            return result

        setattr(LocalEmbedder, "embed", embed)  # noqa: B010 (a bench-only probe)
        try:
            yield
        finally:
            setattr(LocalEmbedder, "embed", saved)  # noqa: B010


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


async def open_system(
    root: Path, data: Path, embedder: Provider, threads: int
) -> RepocontextSystem:
    settings = Settings(
        data_dir=data, embedder=embedder, hybrid=True, workspace_root=root,
        compaction_interval_s=3600.0, embed_threads=threads,
    )  # fmt: skip
    app = EmbeddedApp(settings, watch=False)
    await app.open()
    await app.start(resume=False, vectors=embedder != "none")
    registration = await app.service.ensure_repo(str(root), root.name, launch=False)
    await app.ingest.reconcile(registration, force_full=False)
    system = RepocontextSystem(app, registration.repo_id)
    if embedder != "none":
        await system.wait_for_vectors()
    return system


async def measure(
    name: str,
    root: Path,
    cases: list[Any],
    tmp: Path,
    embedder: Provider,
    threads: int,
    sample: int = 0,
) -> dict[str, Any]:
    """One system from an empty data directory to full coverage. `sample` > 0: passages are
    recorded, not encoded, and `sample` of them are encoded afterwards to extrapolate."""
    clock, recorded = EmbedClock(), RecordedPassages()
    began, cpu = time.perf_counter(), cpu_seconds()
    with clock.installed(), recorded.installed() if sample else nullcontext():
        system = await open_system(root, tmp / name, embedder, threads)
        passages = getattr(system.app.plane.embedder, "passages", None)
        if passages is not None:  # reap the encoder child so RUSAGE_CHILDREN counts its CPU
            passages.stop_if_idle()
    row: dict[str, Any] = {"system": name, "coverage_s": time.perf_counter() - began,
                           "cpu_s": cpu_seconds() - cpu}  # fmt: skip
    try:
        listed = await system.app.service.list_repos(t.NoArgs())
        files = next(r.fileCount for r in listed.repositories if r.repoId == system.repo_id)
        row |= {"passages": clock.passages, "embed_s": clock.seconds, "files": files,
                "workers": max(clock.workers, default=0)}  # fmt: skip
        # a sampled arm's vectors are placeholders: its quality would mean nothing
        scores = [] if sample else [score_case(await system.search(c.query), c.gold) for c in cases]
        row["quality"] = summarise(scores) if scores else None
    finally:
        await system.close()
    texts = recorded.texts or clock.texts
    row["wordpieces"] = wordpieces(texts) if texts else 0
    if sample and texts:
        extrapolate(row, len(texts), encode_sample(texts, sample, threads))
    return row


def extrapolate(row: dict[str, Any], passages: int, rate: SampleRate) -> None:
    """The arm's figures had every passage been encoded at the sample's rate: the measured
    run (everything but encoding) plus the encoding of `passages`."""
    per_wall, per_cpu = rate.wall_s / rate.passages, rate.cpu_s / rate.passages
    row |= {
        "passages": passages,
        "embed_s": passages * per_wall,
        "coverage_s": row["coverage_s"] + passages * per_wall,
        "cpu_s": row["cpu_s"] + passages * per_cpu,
        "workers": 1,
        "sample": rate,
    }


def render(repo: str, rows: list[dict[str, Any]]) -> str:
    head = (
        "| system | passages | passages/file | passages/s | embed s | to full coverage s "
        "| CPU s | threads | wordpieces | R@1 | R@10 | MRR@10 |"
    )
    lines, notes = [f"\n{repo}", head, "|---" * 12 + "|"], []
    for r in rows:
        q = r["quality"]
        files = r.get("files") or 0
        per_file = f"{r['passages'] / files:.2f}" if files and r["passages"] else "-"
        rate = f"{r['passages'] / r['embed_s']:.1f}" if r["embed_s"] else "-"
        mark = "~" if "sample" in r else ""  # extrapolated from a sample's rate
        quality = (
            f"{q.recall_at_1:.3f} | {q.recall_at_10:.3f} | {q.mrr_at_10:.3f}" if q else "- | - | -"
        )
        lines.append(
            f"| {r['system']} | {r['passages']} | {per_file} | {mark}{rate} "
            f"| {mark}{r['embed_s']:.1f} | {mark}{r['coverage_s']:.1f} | {mark}{r['cpu_s']:.1f} "
            f"| {r['workers'] or '-'} | {r['wordpieces']} | {quality} |"
        )
        if "sample" in r:
            s: SampleRate = r["sample"]
            notes.append(
                f"~ {r['system']}: every passage derived, stored and counted; {s.passages} of "
                f"them (random, seed {SAMPLE_SEED}) encoded in {s.wall_s:.1f} s, "
                f"{s.cpu_s:.1f} s CPU ({s.per_second:.1f} passages/s); time and CPU = the "
                "run without encoding + every passage at that rate (extrapolated)"
            )
    return "\n".join(lines + notes)


def corpora(names: list[str], limit: int | None) -> Iterator[tuple[str, Path, list[Any]]]:
    """(name, tree, benchmark cases) per name: `django` is the pinned Django sdist of
    `make bench` (no localisation cases), any other a localisation repository."""
    cases = read_cases(CASES_FILE)
    if "django" in names:
        yield "django", fetch_corpus(default_data_dir() / "bench"), []
    others = [n for n in names if n != "django"]
    for repo in select("all", others) if others else []:
        root = checkout(repo, DEFAULT_MIRRORS, DEFAULT_CACHE)
        yield repo.name, root, [c for c in cases if c.repo == repo.name][:limit]


async def main(names: list[str], limit: int | None, systems: list[str], sample: int) -> None:
    plans: dict[str, tuple[Provider, int, Callable[[], Any] | None]] = {
        "keyword": ("none", 1, None),
        "old": ("local", 1, baseline_passages),
        "new": ("local", Settings().embed_threads, None),
    }
    for repo, root, own in corpora(names, limit):
        rows = []
        with tempfile.TemporaryDirectory(prefix="semantic-plane-") as tmp:
            for name in systems:
                embedder, threads, patch = plans[name]
                arm_sample = sample if name == "old" else 0
                with patch() if patch is not None else nullcontext():
                    rows.append(
                        await measure(name, root, own, Path(tmp), embedder, threads, arm_sample)
                    )
                print(f"{repo}: {name} done", file=sys.stderr, flush=True)
        print(render(f"{repo} ({len(own)} cases)", rows), flush=True)


def cli() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.semantic_plane")
    parser.add_argument("--repos", default="koa,gin", help="localisation repositories, or django")
    parser.add_argument("--systems", default="keyword,old,new")
    parser.add_argument("--limit", type=int, help="at most N cases per repository")
    parser.add_argument(
        "--old-sample", type=int, default=0, metavar="N",
        help="encode only N of the old arm's passages (random) and extrapolate its time and CPU",
    )  # fmt: skip
    args = parser.parse_args()
    systems = [s for s in args.systems.split(",") if s]
    asyncio.run(main(args.repos.split(","), args.limit, systems, args.old_sample))


if __name__ == "__main__":
    cli()
