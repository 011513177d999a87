"""A pinned head as a plain folder without `.git`: what a user indexes, reused across runs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.bench.localisation.repos import PinnedRepo, require_mirror

DEFAULT_CACHE = Path.home() / ".cache" / "repocontext-bench"


def checkout(repo: PinnedRepo, mirrors: Path, cache: Path) -> Path:
    """`git archive <pin> | tar -x` into cache/checkouts/<slug>-<pin12>/<name>, once. The folder
    is named as a user's clone would be (`click`), which is also the id repocontext gives it.
    A finished extraction is reused without the mirror, which only a fresh extraction needs."""
    target = cache / "checkouts" / cache_key(repo) / repo.name.split("/")[1]
    if is_extracted(target):
        return target
    return materialise(require_mirror(repo, mirrors), repo.commit, target)


def is_extracted(target: Path) -> bool:
    return target.with_name(target.name + ".done").exists() and target.is_dir()


def materialise(git_dir: Path, commit: str, target: Path) -> Path:
    """Extract the tree at `commit` into `target`; a finished extraction is marked and reused,
    a half-finished one (an interrupted run) is replaced."""
    done = target.with_name(target.name + ".done")
    if is_extracted(target):
        return target
    partial = target.with_name(target.name + ".part")
    shutil.rmtree(partial, ignore_errors=True)
    shutil.rmtree(target, ignore_errors=True)
    partial.mkdir(parents=True)
    archive = subprocess.Popen(
        ["git", "-C", str(git_dir), "archive", "--format=tar", commit], stdout=subprocess.PIPE
    )
    extract = subprocess.run(["tar", "-x", "-C", str(partial)], stdin=archive.stdout, check=False)
    if archive.stdout is not None:
        archive.stdout.close()
    if archive.wait() != 0 or extract.returncode != 0:
        shutil.rmtree(partial, ignore_errors=True)
        raise RuntimeError(f"git archive {commit} from {git_dir} failed (is the commit there?)")
    partial.rename(target)
    done.touch()
    return target


def cache_key(repo: PinnedRepo) -> str:
    """One name per repository and pin, for every cached artefact."""
    return f"{repo.slug}-{repo.commit[:12]}"
