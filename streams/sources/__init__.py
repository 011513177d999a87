"""Workspace source: walk, read and watch a directory tree and say what to publish to files.v1.

Pure library code with no event-log dependency; the caller wires batches to the log:

    with Manifest(data_dir / "source-manifest.db") as manifest:
        known = manifest.load(repo_id, log.instance_id)
        for batch in plan_changes(root, filters, known):
            publish([to_event(repo_id, s, time.time()) for s in batch.upserts], batch.deletes)
            manifest.apply(repo_id, batch.record, batch.forget)
"""

from streams.sources.ignore import PathFilter
from streams.sources.manifest import Manifest, ManifestRow
from streams.sources.reconcile import ChangeBatch, PlanCounts, plan_changes
from streams.sources.walker import FileSnapshot, Skipped, WalkEntry, read_file, to_event, walk
from streams.sources.watcher import WorkspaceWatcher, iter_path_changes

__all__ = [
    "ChangeBatch",
    "FileSnapshot",
    "Manifest",
    "ManifestRow",
    "PathFilter",
    "PlanCounts",
    "Skipped",
    "WalkEntry",
    "WorkspaceWatcher",
    "iter_path_changes",
    "plan_changes",
    "read_file",
    "to_event",
    "walk",
]
