"""What changed upstream since a git-sourced repository was indexed (`changed`, spec §1.4).

The workspace version walks the disk; a git repository's "disk" is its ref. So this fetches
the ref now (into its own staging ref, `refs/repocontext/changed`, next to the poller's in the
same bare staging repository, so the indexed commit's objects are already there), diffs the
indexed commit against the ref's head, and checks each candidate against the digests the
views hold: a file the views already have at the head's content is not reported, which keeps
the answer exact while the views trail or lead the indexed commit (a deletes-only commit
stamps no revision). Same rules as the poller: regular files only, binaries never indexed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import xxhash

from schemas.events import looks_binary
from streams.errors import SourceError
from streams.sources.changes import Changes
from streams.sources.git_poller import ensure_staging, git_failure, redact
from streams.sources.walker import DIGEST_PREFIX

CHANGED_REF = "refs/repocontext/changed"
_REGULAR = ("100644", "100755")


@dataclass(frozen=True, slots=True)
class GitTarget:
    repo_id: str
    url: str
    ref: str
    staging: Path  # the bare staging repository (the poller's, when it runs here)


async def _git(target: GitTarget, *args: str) -> bytes:
    proc = await asyncio.create_subprocess_exec(
        "git", "-c", "core.askPass=true", "--git-dir", str(target.staging), *args,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await proc.communicate()
    if proc.returncode != 0:
        message = git_failure(err, target.url, 300)
        raise SourceError(f"git {args[0]} failed for {redact(target.url)}: {message}")
    return out


async def _has_commit(target: GitTarget, commit: str) -> bool:
    try:
        await _git(target, "cat-file", "-e", f"{commit}^{{commit}}")
    except SourceError:
        return False
    return True


async def fetch_head(target: GitTarget) -> str:
    """Fetch the ref now; its commit. Raises SourceError when the fetch fails."""
    await ensure_staging(target.staging)
    await _git(
        target, "fetch", "--quiet", "--no-tags", "--force", "--depth=1",
        target.url, f"+{target.ref}:{CHANGED_REF}",
    )  # fmt: skip
    return (await _git(target, "rev-parse", f"{CHANGED_REF}^{{commit}}")).decode().strip()


def _in_scope(path: str, scope: str) -> bool:
    return not scope or path == scope or path.startswith(scope + "/")


async def _indexable_digest(target: GitTarget, blob: str) -> str | None:
    """The digest the poller would publish for this blob (None: a binary, never indexed)."""
    data = await _git(target, "cat-file", "blob", blob)
    if looks_binary(data):
        return None
    return DIGEST_PREFIX + xxhash.xxh3_128(data).hexdigest()


async def diff_git_against_index(
    target: GitTarget, indexed_commit: str, indexed: Mapping[str, str], scope: str = ""
) -> tuple[str, Changes]:
    """(the ref's head commit, added/updated/removed paths under `scope`, sorted).
    `indexed` maps each indexed path under `scope` to its digest."""
    head = await fetch_head(target)
    changes = Changes()
    if head == indexed_commit:
        return head, changes
    if not await _has_commit(target, indexed_commit):  # staging made here, not by the poller
        await _git(target, "fetch", "--quiet", "--no-tags", "--depth=1", target.url, indexed_commit)
    raw = await _git(
        target, "diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", indexed_commit, head
    )
    fields = raw.split(b"\0")
    for i in range(0, len(fields) - 1, 2):
        path = fields[i + 1].decode("utf-8", "surrogateescape")
        if not _in_scope(path, scope):
            continue
        _old_mode, new_mode, _old_blob, new_blob, status = fields[i].decode().lstrip(":").split()
        known = indexed.get(path)
        digest = None
        if status != "D" and new_mode in _REGULAR:
            digest = await _indexable_digest(target, new_blob)
        if digest is None:  # deleted, now a symlink/submodule, or binary: not indexable
            if known is not None:
                changes.removed.append(path)
        elif known is None:
            changes.added.append(path)
        elif known != digest:
            changes.updated.append(path)
    changes.added.sort()
    changes.updated.sort()
    changes.removed.sort()
    return head, changes
