"""A search without a repository: every repository the caller may read, merged by score
(query_api/core/search_merge.py), over the real dispatcher and a real EmbeddedApp."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal

from query_api.access.auth import LEVELS, LOCAL_USER, Principal
from query_api.answers.text import render_text
from query_api.core.search_merge import merge_search_answers
from query_api.server.call_guard import CallGuard
from query_api.server.mcp_server import invoke
from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from schemas import tools as t
from schemas.retrieval import RetrievalPath, SearchMode
from tests.integration.test_link_grants import write_repo

REPOS = ("alpha", "beta", "gamma")


def answer(repo: str, *scored: tuple[str, float]) -> t.SearchResult:
    hits = [
        t.SearchHit(score=score, entry=t.EntryView(key=key, exists=True, kind="File", repoId=repo))
        for key, score in scored
    ]
    return t.SearchResult(
        repoId=repo,
        query="q",
        mode=SearchMode.KEYWORD,
        retrievalPath=RetrievalPath.KEYWORD_NO_EMBEDDER,
        hits=hits,
    )


def test_merge_ranks_by_score_keeps_a_key_once_and_cuts_to_k() -> None:
    a = answer("a", ("repo/a/file/x", 3.0), ("repo/a/file/y", 1.0))
    b = answer("b", ("repo/b/file/z", 2.0), ("repo/a/file/x", 5.0))  # x again, scored higher
    merged = merge_search_answers("q", 2, [a, b])
    assert [(h.entry.key, h.score) for h in merged.hits] == [
        ("repo/a/file/x", 5.0),
        ("repo/b/file/z", 2.0),
    ]
    assert merged.repoId is None and merged.searchedRepos == ["a", "b"]
    empty = merge_search_answers("q", 5, [])
    assert empty.hits == [] and empty.mode == SearchMode.EMPTY and empty.note


def test_an_empty_answer_from_one_repository_keeps_its_note() -> None:
    """Not 'no hit in any of the 1 repositories searched': the repository said why."""
    why = answer("a").model_copy(update={"note": "no file or memory entry in 'a' contains 'q'"})
    assert merge_search_answers("q", 5, [why]).note == why.note
    assert merge_search_answers("q", 5, [answer("a")]).note == "no hit in a"
    both = merge_search_answers("q", 5, [answer("a"), answer("b")]).note
    assert both == "no hit in any of the 2 repositories searched"


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[BlockingPortal, EmbeddedApp]]:
    tmp = tmp_path_factory.mktemp("every-repo")
    for name in REPOS:
        write_repo(tmp / "ws" / name, name)
    config = Settings(
        data_dir=tmp / "data", workspace_root=tmp / "ws", embedder="none", processor_workers=0
    )

    async def index_all(app: EmbeddedApp) -> None:
        await app.start(resume=False)
        for name in REPOS:
            await app.service.ensure_repo(str(tmp / "ws" / name), name)
        deadline = time.monotonic() + 60
        for name in REPOS:
            while (await app.service.index_status(t.RepoIdArgs(repoId=name))).status != "Completed":
                assert time.monotonic() < deadline, f"{name} did not finish indexing"
                await app.runtime.wait_idle(1)
        assert await app.runtime.wait_idle(60)

    with (
        start_blocking_portal() as portal,
        portal.wrap_async_context_manager(EmbeddedApp(config, watch=False)) as app,
    ):
        portal.call(index_all, app)
        yield portal, app


def search(
    rig: tuple[BlockingPortal, EmbeddedApp], principal: Principal, args: dict[str, Any]
) -> dict[str, Any]:
    portal, app = rig
    specs = {spec.name: spec for spec in app.tools()}
    result = portal.call(
        invoke,
        app.services,
        specs,
        "repocontext_search",
        args,
        app.metrics,
        CallGuard(30.0),
        principal,
    )
    assert not result.isError, result.content
    assert result.structuredContent is not None
    return dict(result.structuredContent)


def test_a_search_without_a_repository_searches_every_one(
    rig: tuple[BlockingPortal, EmbeddedApp],
) -> None:
    found = search(rig, LOCAL_USER, {"query": "charge card", "k": 10})
    assert "repoId" not in found and found["searchedRepos"] == list(REPOS)
    paths = {(h["entry"]["repoId"], h["entry"]["path"]) for h in found["hits"]}
    assert {(r, f"src/{r}_billing.py") for r in REPOS} <= paths
    scores = [h["score"] for h in found["hits"]]
    assert scores == sorted(scores, reverse=True)
    assert len(search(rig, LOCAL_USER, {"query": "charge card", "k": 2})["hits"]) == 2
    text = render_text(t.SearchResult.model_validate(found), found)
    assert (
        "in every repository (alpha, beta, gamma)" in text and "beta: src/beta_billing.py" in text
    )


def test_it_searches_only_the_repositories_the_caller_may_read(
    rig: tuple[BlockingPortal, EmbeddedApp],
) -> None:
    alpha_reader = Principal("alpha-reader", {"alpha": LEVELS["read"]})
    found = search(rig, alpha_reader, {"query": "charge card"})
    assert found["searchedRepos"] == ["alpha"]
    assert {h["entry"]["repoId"] for h in found["hits"]} == {"alpha"}
    assert "beta" not in json.dumps(found) and "gamma" not in json.dumps(found)
