"""`repocontext status`: the registered repositories, their file counts and last jobs, and how
far the views trail the log.

The views can hold part of the log: after a `replay` or an `index` that was interrupted, the
jobs still say Completed (the walk was) while the file counts are the views' partial ones; a
QA pass read 1,776 of 15,000 files that way with nothing saying the views were behind.
`eventsBehind` is the runtime's own measure (every pipeline step and the view sink against the
log's end), read beside any live owner (SQLite WAL); the next start applies the rest.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from query_api.settings import Settings
from repocontext.command_io import out
from repocontext.data_dir import holds_no_log
from schemas.errors import RepoContextError
from streams.errors import StoreError
from streams.eventlog.factory import open_event_log
from streams.runtime.embedded import EmbeddedRuntime
from streams.runtime.log_health import REMEDY
from streams.sources.manifest import Manifest
from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore

# a server started with its own --data-dir is found by no project's default directory (a QA
# pass read an empty answer beside a live server and took it for an empty index)
NOTHING_HERE = (
    "nothing is indexed in this data directory: for a server started with --data-dir (or "
    "REPOCONTEXT_DATA_DIR), pass the same --data-dir; `repocontext index PATH` indexes here"
)


async def cmd_status(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    if not settings.views_path.exists():  # nothing indexed here: say so, create nothing
        out({"dataDir": str(settings.data_dir), "repositories": [], "note": NOTHING_HERE})
        return 0
    try:
        views = ViewStore(settings.views_path, default_registry())
    except StoreError as exc:  # said with what mends it: status itself changes nothing
        raise StoreError(
            f"{exc}; the next `repocontext index PATH`, `serve` or `mcp` moves it aside and "
            "rebuilds it from the log"
        ) from None
    manifest = Manifest(settings.manifest_path)  # ingest's own state: the jobs
    try:
        repos = [
            {
                "repoId": repo.repo_id,
                "root": repo.root,
                "fileCount": views.file_count(repo.repo_id),
                "job": manifest.get_job(repo.repo_id),
            }
            for repo in views.list_repos()
        ]
        state = await _log_state(settings, views)
        out({"dataDir": str(settings.data_dir), **state, "repositories": repos})
    finally:
        manifest.close()
        views.close()
    return 0


async def _log_state(settings: Settings, views: ViewStore) -> dict[str, object]:
    """`eventsBehind`: log records the embedded pipeline has not applied yet (absent for a
    remote log: its lag is the query replica's to measure); `logFault` when the log cannot
    be trusted (gone, unreadable, behind the views), in the words the server's readiness
    uses. Status still answers from the views then: it is how the operator finds out."""
    if settings.log_url is not None:
        return {}
    if holds_no_log(settings.data_dir, None):
        return {"logFault": f"{settings.data_dir / 'log.db'} is missing; {REMEDY}"}
    try:
        log = open_event_log(settings.resolved_log_url(), **settings.event_log_options())
    except RepoContextError as exc:  # "database disk image is malformed"
        return {"logFault": f"{exc}; {REMEDY}"}
    try:
        runtime = EmbeddedRuntime(log, views)
        behind = (await runtime.lag()).behind
        return {"eventsBehind": behind, "logFault": runtime.health.reason()}
    except RepoContextError as exc:
        return {"logFault": f"the event log cannot be read ({exc}); {REMEDY}"}
    finally:
        await log.close()
