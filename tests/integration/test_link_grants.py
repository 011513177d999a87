"""Links never read across grants (issue 18 item 1), as a property over the real dispatcher.

A real EmbeddedApp (SQLite log, views, runtime) indexes three repositories and holds memory
in each; then, for random grants and random link graphs, a principal writes an entry linking
anywhere and reads through every entry-returning tool. No answer may carry a field value of
an entry of a repository the principal may not read, a staleness verdict about one, or a
difference between a withheld key that exists and one that does not.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from query_api.access.auth import LEVELS, LOCAL_USER, Principal
from query_api.server.call_guard import CallGuard
from query_api.server.mcp_server import invoke
from query_api.settings import Settings
from repocontext import memory_transfer as mt
from repocontext.app import EmbeddedApp
from schemas.memory import MemoryEntry
from schemas.tools import RepoIdArgs
from streams.stores.views.memory import MemoryViews

REPOS = ("alpha", "beta", "gamma")
WITHHELD_SHAPE = {"exists": False, "kind": "Unknown", "withheld": True}


def write_repo(root: Path, name: str) -> None:
    (root / "src").mkdir(parents=True)
    (root / "src" / f"{name}_billing.py").write_text(
        f"def {name}_charge_card(card_{name}, amount_{name}):\n    return amount_{name}\n"
    )
    (root / "README.md").write_text(f"# {name}\nledger notes for {name}\n")


class Rig:
    def __init__(self, portal: BlockingPortal, app: EmbeddedApp) -> None:
        self.portal = portal
        self.app = app
        self.specs = {spec.name: spec for spec in app.tools()}
        self.ids = itertools.count()

    def call(self, principal: Principal, name: str, args: dict[str, Any]) -> tuple[bool, str]:
        """(ok, the answer) of one tool call through the real dispatcher: its structured
        content as JSON (the text block is a rendering of the same answer), or the error."""
        result = self.portal.call(
            invoke,
            self.app.services,
            self.specs,
            name,
            args,
            self.app.metrics,
            CallGuard(30.0),
            principal,
        )
        text = " ".join(getattr(block, "text", "") for block in result.content)
        if result.structuredContent is not None and not result.isError:
            text = json.dumps(result.structuredContent)
        return not result.isError, text


@contextlib.contextmanager
def started_rig(tmp_path: Path) -> Iterator[Rig]:
    workspace = tmp_path / "ws"
    for name in REPOS:
        write_repo(workspace / name, name)
    config = Settings(
        data_dir=tmp_path / "data",
        workspace_root=workspace,
        embedder="none",
        processor_workers=0,
        compaction_interval_s=3600.0,
    )

    async def index_all(app: EmbeddedApp) -> None:
        await app.start(resume=False)
        for name in REPOS:
            await app.service.ensure_repo(str(workspace / name), name)
        deadline = time.monotonic() + 60
        for name in REPOS:
            while (await app.service.index_status(RepoIdArgs(repoId=name))).status != "Completed":
                assert time.monotonic() < deadline, f"{name} did not finish indexing"
                await app.runtime.wait_idle(1)
        assert await app.runtime.wait_idle(60)

    with (
        start_blocking_portal() as portal,
        portal.wrap_async_context_manager(EmbeddedApp(config, watch=False)) as app,
    ):
        portal.call(index_all, app)
        rig = Rig(portal, app)
        for name in REPOS:
            for n in range(2):
                ok, text = rig.call(
                    LOCAL_USER,
                    "repocontext_remember",
                    {
                        "repoId": name,
                        "topic": "notes",
                        "id": f"n{n}",
                        "title": f"title-{name}-{n}-confidential",
                        "body": f"body of {name} {n}: the {name} vault code is {name}{n}x9",
                        "addLinks": {"about": [f"repo/{name}/file/src/{name}_billing.py"]},
                    },
                )
                assert ok, text
        # An alpha entry whose beta link has drifted: stale for a reader of beta only.
        drifted = MemoryEntry(
            repo_id="alpha",
            topic="notes",
            id="crosslink",
            fields={"title": "crosslink-alpha-visible"},
            links={
                "see": [
                    "repo/beta/file/src/beta_billing.py",
                    "repo/alpha/file/src/alpha_billing.py",
                ]
            },
            link_digests={"repo/beta/file/src/beta_billing.py": "xxh3:drifted"},
            created_at=time.time(),
            updated_at=time.time(),
        )
        memory = MemoryViews(app.views)
        portal.call(mt.import_entries, app.log, app.runtime, memory, [drifted], 30.0)
        ok, text = rig.call(LOCAL_USER, "repocontext_recall", {"key": drifted.key})
        assert ok and json.loads(text)["staleLinks"] == ["repo/beta/file/src/beta_billing.py"]
        yield rig


def markers_of(rig: Rig) -> dict[str, set[str]]:
    """Per repository, every field value only its own entries hold (as the local user sees
    them): memory titles and bodies, file digests, symbol signatures and paths."""
    values: dict[str, set[str]] = {}
    for name in REPOS:
        found: set[str] = set()
        for scope in ("Memory", "Files", "Symbols"):
            ok, text = rig.call(
                LOCAL_USER, "repocontext_scan", {"repoId": name, "scope": scope, "pageSize": 500}
            )
            assert ok, text
            for entry in json.loads(text)["entries"]:
                found |= {v for v in entry["fields"].values() if len(v) >= 12}
        values[name] = found
    known = " ".join(target_keys())  # keys a caller writes itself are not the entry's fields
    return {
        name: {
            v
            for v in mine
            if v not in known and not any(v in values[o] for o in REPOS if o != name)
        }
        for name, mine in values.items()
    }


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Rig, dict[str, set[str]]]]:
    with started_rig(tmp_path_factory.mktemp("link-grants")) as started:
        yield started, markers_of(started)


def target_keys() -> list[str]:
    keys = []
    for name in REPOS:
        keys += [
            f"repo/{name}/mem/notes/n0",
            f"repo/{name}/mem/notes/n1",
            f"repo/{name}/mem/notes/ghost",  # never written: must read like n0 when withheld
            f"repo/{name}/file/src/{name}_billing.py",
            f"repo/{name}/file/src/missing.py",
            f"repo/{name}/symbol/{name}_billing.{name}_charge_card",
            f"repo/{name}/pkg/src",
        ]
    return [*keys, "repo/alpha/mem/notes/crosslink"]


grants = st.fixed_dictionaries(
    {name: st.sampled_from([None, "read", "write", "admin"]) for name in REPOS}
)
link_graphs = st.dictionaries(
    st.sampled_from(["see", "depends", "about"]),
    st.lists(st.sampled_from(target_keys()), min_size=1, max_size=6, unique=True),
    min_size=1,
    max_size=3,
)


def walk(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def check_answer(text: str, unreadable: list[str], markers: dict[str, set[str]]) -> None:
    for repo in unreadable:
        leaked = [m for m in markers[repo] if m in text]
        assert not leaked, f"{repo} leaked {leaked[:3]} in {text[:400]}"
    if not text.startswith("{"):
        return  # an error message: checked for markers above
    for node in walk(json.loads(text)):
        owner = node.get("repoId")
        key = node.get("key")
        if isinstance(key, str) and "exists" in node and owner in unreadable:
            shape = {k: v for k, v in node.items() if v not in (None, [], {})}
            assert shape == {"key": key, "repoId": owner, **WITHHELD_SHAPE}, shape
        for stale in node.get("staleLinks") or []:
            assert stale.split("/")[1] not in unreadable, node
        if key == "repo/alpha/mem/notes/crosslink" and "beta" in unreadable:
            assert not node.get("stale"), f"the drifted beta link showed through: {node}"


@pytest.mark.slow
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(grant_levels=grants, home=st.sampled_from(REPOS), links=link_graphs)
def test_no_answer_carries_a_field_of_an_unreadable_repository(
    rig: tuple[Rig, dict[str, set[str]]],
    grant_levels: dict[str, str | None],
    home: str,
    links: dict[str, list[str]],
) -> None:
    started, markers = rig
    levels = {name: LEVELS[g] for name, g in grant_levels.items() if g is not None}
    levels[home] = max(levels.get(home, 0), LEVELS["write"])  # it writes the pivot at home
    principal = Principal("caller", levels)
    unreadable = [name for name in REPOS if not principal.may(name, "read")]

    pivot_id = f"pivot{next(started.ids)}"
    pivot = f"repo/{home}/mem/notes/{pivot_id}"
    args = {"repoId": home, "topic": "notes", "id": pivot_id, "title": "p", "addLinks": links}
    ok, text = started.call(principal, "repocontext_remember", args)
    assert ok, text

    calls: list[tuple[str, dict[str, Any]]] = [
        ("repocontext_neighbors", {"key": pivot, "depth": 3, "maxNodes": 100}),
        ("repocontext_neighbors", {"key": "repo/alpha/mem/notes/crosslink", "depth": 3}),
        ("repocontext_recall", {"key": pivot}),
        ("repocontext_recall", {"key": "repo/alpha/mem/notes/crosslink"}),
        ("repocontext_scan", {"repoId": home, "scope": "Memory", "pageSize": 500}),
        ("repocontext_search", {"repoId": home, "query": f"{home} charge card ledger notes"}),
        ("repocontext_context", {"repoId": home, "task": f"change {home}_charge_card"}),
        ("repocontext_list_topics", {"repoId": home}),
    ]
    calls += [("repocontext_recall", {"key": k}) for ts in links.values() for k in ts]
    for name, call_args in calls:
        _, answer = started.call(principal, name, call_args)
        check_answer(answer, unreadable, markers)


def test_the_issue_call_reads_placeholders(rig: tuple[Rig, dict[str, set[str]]]) -> None:
    """The issue's reproduction: an alpha writer links into beta and reads its neighbors."""
    started, markers = rig
    principal = Principal("alpha-writer", {"alpha": LEVELS["write"]})
    targets = [
        "repo/beta/mem/notes/n0",
        "repo/beta/mem/notes/ghost",
        "repo/beta/file/src/beta_billing.py",
        "repo/beta/symbol/beta_billing.beta_charge_card",
    ]
    args = {
        "repoId": "alpha",
        "topic": "n",
        "id": "pivot",
        "title": "p",
        "addLinks": {"see": targets},
    }
    ok, text = started.call(principal, "repocontext_remember", args)
    assert ok, text
    ok, text = started.call(principal, "repocontext_neighbors", {"key": "repo/alpha/mem/n/pivot"})
    assert ok, text
    check_answer(text, ["beta", "gamma"], markers)
    neighbors = json.loads(text)["neighbors"]
    assert [n["key"] for n in neighbors] == sorted(targets)
    assert all(n["withheld"] and not n["exists"] for n in neighbors)
    # an existing and a never-written key read the same, but for the key itself
    by_key = {n["key"]: {k: v for k, v in n.items() if k != "key"} for n in neighbors}
    assert by_key["repo/beta/mem/notes/n0"] == by_key["repo/beta/mem/notes/ghost"]
    # the local user (every grant) still sees the same links in full
    ok, text = started.call(LOCAL_USER, "repocontext_neighbors", {"key": "repo/alpha/mem/n/pivot"})
    assert ok and "title-beta-0-confidential" in text
