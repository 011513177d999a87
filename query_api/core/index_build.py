"""Which repositories are still being indexed, and the line that says so in an answer.

While a repository's first walk is publishing, the views keep up with each batch, so the log
lag reads 0 events behind although most files are not indexed yet: an empty or odd answer
then looks final. The ingest job knows better; answers carry its state (`Freshness.indexing`)
and a line a model reads (search's `note`, the text block's freshness lines).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from schemas import tools as t
from streams.stores.views import read as views_read

if TYPE_CHECKING:
    from streams.ingest import IngestCoordinator
    from streams.stores.views.store import ViewStore


def index_builds(
    ingest: IngestCoordinator, views: ViewStore, repo_ids: Iterable[str]
) -> list[t.IndexBuild]:
    """The repositories among `repo_ids` whose ingest job is running in this process."""
    builds = []
    resumed = set(ingest.unchecked())  # resumed at start, the disk not compared yet
    for repo_id in repo_ids:
        job = ingest.job(repo_id)
        if job is None or job.get("status") != "Running":
            continue
        found = job.get("filesScanned")
        builds.append(
            t.IndexBuild(
                repoId=repo_id,
                phase=job.get("phase"),
                filesIndexed=views.file_count(repo_id),
                # the walk sets filesScanned once it has listed every file: 0 means not yet
                filesFound=found if isinstance(found, int) and found > 0 else None,
                resumed=True if repo_id in resumed else None,
            )
        )
    return builds


def cut_files(views: ViewStore, repo_id: str) -> dict[str, int]:
    """index_status's counts of indexed files the tools return only in part: `filesTruncated`
    (text past the stored 64 Ki characters: outline, bundles and memory links stop there) and
    `filesSearchedInPart` (longer than the indexed limit: search stops too). Read from the
    views, so a resumed walk that reads no file still counts them all."""
    truncated, searched_in_part = views.read(lambda c: views_read.cut_file_counts(c, repo_id))
    return {"filesTruncated": truncated, "filesSearchedInPart": searched_in_part}


def building_line(build: t.IndexBuild) -> str:
    """What an answer over a repository still being indexed must not leave unsaid."""
    repo, indexed, found = build.repoId, build.filesIndexed, build.filesFound
    if build.resumed and indexed > 0:  # a restart: the index is there
        # `found` counts binaries and other files the index leaves out: fewer indexed ones
        # are no sign of a first walk
        listed = "its files still being listed" if found is None else f"{found} files found"
        return (
            f"the index of {repo} ({indexed} files) is being compared with the disk, {listed}; "
            "answers may miss edits made while the server was down"
        )
    if found is None:
        progress = f"listing its files, {indexed} indexed so far"
    elif build.phase == "Applying":  # every file is read; the views are catching up
        progress = f"all {found} files read, their index being applied"
    elif indexed >= found:  # a resume: the files are there, the disk is being compared
        return (
            f"the index of {repo} is being compared with the disk ({found} files); "
            "answers may miss edits made while the server was down"
        )
    else:
        progress = f"{indexed} of {found} files so far"
    return (
        f"the index of {repo} is still being built: {progress}; hits may be missing or "
        "ranked oddly until it completes (repocontext_index_status shows its progress)"
    )


def building_note(builds: Sequence[t.IndexBuild] | None) -> str | None:
    """One line for an answer's `note` naming every repository still being built."""
    return "; ".join(building_line(build) for build in builds) if builds else None
