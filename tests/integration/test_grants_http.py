"""Issue 18 items 1 and 2 over the real server: `repocontext serve` with a token file of
per-repository grants, driven by the real MCP client over streamable HTTP."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import ClientSession

from tests.conftest import ServeProcess
from tests.integration.mcp_helpers import call, call_error, http_session, wait_for, wait_indexed

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.slow,  # HTTP servers under token files, repositories added live
]

TOKENS = {
    "admin": ("admin-token-4f1d", {"*": ["admin"]}),
    "alpha-writer": ("alpha-writer-token-8e2a", {"alpha": ["write"]}),
    "alpha-admin": ("alpha-admin-token-1b7c", {"alpha": ["admin"]}),
    "ghost-admin": ("ghost-admin-token-5d9e", {"ghost": ["admin"]}),
}
BETA_SECRET = "beta-vault-passphrase-77"


def write_repo(root: Path, name: str) -> None:
    root.mkdir(parents=True)
    (root / "billing.py").write_text(
        f"def charge_card(card, amount):\n    '''{name} billing'''\n    return '{name}-charge'\n"
    )


def session_as(base: str, who: str) -> contextlib.AbstractAsyncContextManager[ClientSession]:
    return http_session(base, TOKENS[who][0])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    workspace = tmp_path / "ws"
    for name in ("alpha", "beta", "ghost"):
        write_repo(workspace / name, name)
    auth = tmp_path / "tokens.json"
    auth.write_text(
        json.dumps(
            {
                "tokens": [
                    {"principal": who, "token": token, "grants": grants}
                    for who, (token, grants) in TOKENS.items()
                ]
            }
        )
    )
    auth.chmod(0o600)
    served = ServeProcess(
        workspace / "alpha",
        tmp_path / "data",
        "--workspace-root",
        str(workspace),
        "--embedder",
        "none",
        env={"REPOCONTEXT_AUTH_FILE": str(auth)},
    )
    try:
        yield served
    finally:
        served.stop()


async def prepare_beta(base: str) -> None:
    async with session_as(base, "admin") as admin:
        await call(admin, "repocontext_add_repo", {"path": "beta"})
        await wait_indexed(admin, "beta")
        await wait_indexed(admin, "alpha")
        await call(
            admin,
            "repocontext_remember",
            {"repoId": "beta", "topic": "secrets", "id": "s1", "title": "s", "body": BETA_SECRET},
        )


async def test_links_into_an_ungranted_repository_read_as_placeholders(
    server: ServeProcess,
) -> None:
    await prepare_beta(server.base)
    beta_keys = [
        "repo/beta/mem/secrets/s1",
        "repo/beta/mem/secrets/guessed",
        "repo/beta/file/billing.py",
        "repo/beta/symbol/billing.charge_card",
    ]
    async with session_as(server.base, "alpha-writer") as writer:
        await call(
            writer,
            "repocontext_remember",
            {
                "repoId": "alpha",
                "topic": "n",
                "id": "pivot",
                "title": "p",
                "addLinks": {"see": beta_keys},
            },
        )
        answer = await call(writer, "repocontext_neighbors", {"key": "repo/alpha/mem/n/pivot"})
        text = json.dumps(answer)
        assert BETA_SECRET not in text and "beta-charge" not in text
        assert "def charge_card" not in text and "digest" not in text and "sizeBytes" not in text
        shapes = {
            n["key"]: {k: v for k, v in n.items() if v not in (None, [], {}) and k != "key"}
            for n in answer["neighbors"]
        }
        assert set(shapes) == set(beta_keys)
        placeholder = {"exists": False, "kind": "Unknown", "repoId": "beta", "withheld": True}
        assert all(shape == placeholder for shape in shapes.values()), shapes
        pivot = await call(writer, "repocontext_recall", {"key": "repo/alpha/mem/n/pivot"})
        # empty and null fields are left out of answers (docs/answers.md)
        assert pivot.get("staleLinks", []) == [] and pivot.get("stale") is False
        refused = await call_error(writer, "repocontext_recall", {"key": beta_keys[0]})
        assert "'read' grant on repository 'beta'" in refused
    async with session_as(server.base, "admin") as admin:  # every grant: the full entries
        answer = await call(admin, "repocontext_neighbors", {"key": "repo/alpha/mem/n/pivot"})
        assert BETA_SECRET in json.dumps(answer)


async def test_add_repo_never_rebinds_an_id_or_binds_an_unreadable_directory(
    server: ServeProcess, tmp_path: Path
) -> None:
    await prepare_beta(server.base)
    async with session_as(server.base, "alpha-admin") as alpha_admin:
        text = await call_error(
            alpha_admin, "repocontext_add_repo", {"path": "beta", "repoId": "alpha"}
        )
        assert "already registered" in text and "remove it first" in text
        found = await call(
            alpha_admin, "repocontext_search", {"repoId": "alpha", "query": "charge"}
        )
        assert "beta-charge" not in json.dumps(found)
    async with session_as(server.base, "ghost-admin") as ghost_admin:
        for path in ("beta", ".", "beta/.", str(tmp_path / "ws" / "beta")):
            text = await call_error(
                ghost_admin, "repocontext_add_repo", {"path": path, "repoId": "ghost"}
            )
            assert "backs a repository you may not read" in text, (path, text)
            assert "'beta'" not in text  # the refusal names no other repository
        # its own directory is fine
        await call(ghost_admin, "repocontext_add_repo", {"path": "ghost", "repoId": "ghost"})
        await wait_indexed(ghost_admin, "ghost")

        async def ghost_has_own_code() -> bool:
            found = await call(
                ghost_admin, "repocontext_search", {"repoId": "ghost", "query": "charge"}
            )
            return [h["entry"]["path"] for h in found["hits"]] == ["billing.py"]

        await wait_for(ghost_has_own_code, what="ghost's own file to be searchable")
        # admin on ghost does not make beta's id bindable either
        text = await call_error(
            ghost_admin, "repocontext_add_repo", {"path": "ghost", "repoId": "beta"}
        )
        assert "grant on repository 'beta'" in text
