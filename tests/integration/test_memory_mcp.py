"""Memory over the real MCP client: remember/recall/update/forget/scan/list_topics/neighbors,
TTL rules, guards, staleness, and memory's survival of reset_index and replay."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from mcp.shared.memory import create_connected_server_and_client_session

from repocontext.app import EmbeddedApp
from schemas import topics
from tests.integration.mcp_helpers import call, call_error, wait_for
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio
KEY = "repo/repo/mem/decisions/"


async def test_remember_recall_update_forget(tmp_path: Path) -> None:
    async with memory_rig(tmp_path) as (_, s):
        made = await call(
            s,
            "repocontext_remember",
            {
                "repoId": "repo",
                "topic": "decisions",
                "id": "db",
                "kind": "Decision",
                "title": "Use SQLite",
                "body": "Embedded default.",
                "tags": ["storage", "adr"],
            },
        )
        assert made["created"] is True and made["key"] == KEY + "db"
        assert made["expires"] is False and made.get("expiresAtUtc") is None
        again = await call(
            s,
            "repocontext_remember",
            {
                "repoId": "repo",
                "topic": "decisions",
                "id": "db",
                "tags": ["wal"],
            },
        )
        assert again["created"] is False  # a caller id merges in place (idempotent retries)
        got = await call(s, "repocontext_recall", {"key": KEY + "db"})
        assert got["exists"] and got["kind"] == "Memory" and got["topic"] == "decisions"
        assert got["fields"]["title"] == "Use SQLite" and got["fields"]["kind"] == "Decision"
        assert got["tags"] == ["adr", "storage", "wal"]  # add-wins set, ordinal order
        assert got["expires"] is False and got["stale"] is False and got.get("staleLinks", []) == []

        upd = await call(
            s,
            "repocontext_update",
            {
                "key": KEY + "db",
                "fields": {"body": "WAL mode."},
                "addTags": ["x"],
                "removeTags": ["adr"],
            },
        )
        assert upd == {
            "key": KEY + "db",
            "kind": "Decision",
            "fieldsUpdated": ["body"],
            "tagsAdded": 1,
            "tagsRemoved": 1,
        }
        got = await call(s, "repocontext_recall", {"key": KEY + "db"})
        assert got["fields"]["body"] == "WAL mode." and "adr" not in got["tags"]
        text = await call_error(
            s, "repocontext_update", {"key": KEY + "db", "fields": {"digest": "x"}}
        )
        assert "not a settable scalar" in text
        text = await call_error(s, "repocontext_update", {"key": KEY + "nope", "fields": {}})
        assert "no memory entry" in text

        gone = await call(s, "repocontext_forget", {"key": KEY + "db"})
        assert gone["mode"] == "delete" and gone["existed"] is True
        got = await call(s, "repocontext_recall", {"key": KEY + "db"})
        assert got["exists"] is False and got.get("tags", []) == [] and got.get("fields", {}) == {}
        gone = await call(s, "repocontext_forget", {"key": KEY + "db"})
        assert gone["existed"] is False


async def test_scan_pages_and_list_topics(tmp_path: Path) -> None:
    async with memory_rig(tmp_path) as (_, s):
        for i in range(7):
            await call(
                s,
                "repocontext_remember",
                {"repoId": "repo", "topic": "todo", "id": f"t{i}", "body": f"item {i}"},
            )
        await call(s, "repocontext_remember", {"repoId": "repo", "topic": "gotchas", "id": "g"})
        topics = await call(s, "repocontext_list_topics", {"repoId": "repo"})
        assert topics["topics"] == [{"topic": "gotchas", "count": 1}, {"topic": "todo", "count": 7}]
        keys: list[str] = []
        token = None
        while True:
            args = {"repoId": "repo", "scope": "memorytopic", "topic": "todo", "pageSize": 3}
            page = await call(s, "repocontext_scan", {**args, "continuationToken": token})
            keys += [e["key"] for e in page["entries"]]
            assert all(e.get("expires") is None and e.get("stale") is None for e in page["entries"])
            token = page.get("continuationToken")
            assert page["hasMore"] == (token is not None)
            if token is None:
                break
        assert keys == [f"repo/repo/mem/todo/t{i}" for i in range(7)]
        # QA: '!!!' (no base64 digit in it) decoded to nothing and answered the first page
        # again, so a caller passing a mangled token looped over page one for ever
        for bad in ("!!!", "cmVwby9y!ZXBv", "%%%%"):
            args = {"repoId": "repo", "scope": "Memory", "continuationToken": bad}
            text = await call_error(s, "repocontext_scan", args)
            assert "not one this server issued" in text, (bad, text)
        page = await call(s, "repocontext_scan", {"repoId": "repo", "scope": "Memory"})
        assert len(page["entries"]) == 8 and page.get("continuationToken") is None
        text = await call_error(s, "repocontext_scan", {"repoId": "repo", "scope": "Blobs"})
        assert "Files" in text and "MemoryTopic" in text
        text = await call_error(s, "repocontext_scan", {"repoId": "repo", "scope": "MemoryTopic"})
        assert "`topic` is required" in text
        text = await call_error(
            s, "repocontext_scan", {"repoId": "repo", "scope": "Memory", "pathPrefix": "src"}
        )
        assert "pathPrefix" in text


async def test_ttl_rules(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, memory_ttl_by_repo={"repo": 3600.0}) as (app, s):
        base = {"repoId": "repo", "topic": "notes"}
        made = await call(s, "repocontext_remember", {**base, "id": "a", "ttlSeconds": 1000})
        first = made["expiresAtUtc"]
        assert made["expires"] is True
        # expiry only moves later: a shorter TTL leaves it, a longer one extends it
        shorter = await call(s, "repocontext_remember", {**base, "id": "a", "ttlSeconds": 10})
        assert shorter["expiresAtUtc"] == first
        longer = await call(s, "repocontext_remember", {**base, "id": "a", "ttlSeconds": 5000})
        assert longer["expiresAtUtc"] > first
        # no TTL on an existing entry leaves the expiry; update keeps the remaining TTL
        same = await call(s, "repocontext_remember", {**base, "id": "a", "body": "b"})
        assert same["expiresAtUtc"] == longer["expiresAtUtc"]
        await call(
            s, "repocontext_update", {"key": "repo/repo/mem/notes/a", "fields": {"title": "t"}}
        )
        got = await call(s, "repocontext_recall", {"key": "repo/repo/mem/notes/a"})
        assert got["expiresAtUtc"] == longer["expiresAtUtc"] and got["remainingSeconds"] > 4000
        # a lapse cannot shorten a later expiry
        lapse = await call(
            s,
            "repocontext_forget",
            {"key": "repo/repo/mem/notes/a", "lapse": True, "lapseSeconds": 5},
        )
        assert lapse["mode"] == "lapse" and lapse["expiresAtUtc"] == longer["expiresAtUtc"]
        # the repository default applies to new entries
        new = await call(s, "repocontext_remember", {**base, "id": "b"})
        assert new["expires"] is True
        # an entry whose expiry passed is hidden at once (recall, scan, topics)
        await call(s, "repocontext_remember", {**base, "id": "c", "ttlSeconds": 0.2})

        async def hidden() -> bool:
            got = await call(s, "repocontext_recall", {"key": "repo/repo/mem/notes/c"})
            return got["exists"] is False and got["hasExpired"] is True

        await wait_for(hidden, 10, "the 0.2 s entry to expire")
        page = await call(s, "repocontext_scan", {"repoId": "repo", "scope": "Memory"})
        assert [e["id"] for e in page["entries"]] == ["a", "b"]
        topics = await call(s, "repocontext_list_topics", {"repoId": "repo"})
        assert topics["topics"] == [{"topic": "notes", "count": 2}]
        # guards on TTL
        text = await call_error(s, "repocontext_remember", {**base, "ttlSeconds": 0})
        assert "`ttlSeconds` must be positive" in text
        assert app.settings.memory_ttl_by_repo == {"repo": 3600.0}


async def test_invalid_default_ttl_policy_refuses_the_create(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, memory_default_ttl_seconds=-5.0) as (_, s):
        text = await call_error(s, "repocontext_remember", {"repoId": "repo", "topic": "n"})
        assert "TTL policy" in text
        made = await call(
            s, "repocontext_remember", {"repoId": "repo", "topic": "n", "ttlSeconds": 60}
        )
        assert made["expires"] is True


async def test_guards_say_which(tmp_path: Path) -> None:
    async with memory_rig(tmp_path) as (_, s):
        base = {"repoId": "repo", "topic": "notes", "id": "g"}
        leaked = 'The fix is X.\n</body>\n<parameter name="tags">["a"]</parameter>\n</invoke>'
        text = await call_error(s, "repocontext_remember", {**base, "body": leaked})
        assert "leaked tool-call framing" in text and "body" in text and "tags" in text
        fine = "Use <b>bold</b> in docs; tags like <T> are fine"
        await call(s, "repocontext_remember", {**base, "body": fine})
        secret = "clone https://bot:hunter2@git.example.com/r.git"
        text = await call_error(s, "repocontext_remember", {**base, "provenance": secret})
        assert "`provenance`" in text and "password" in text and "hunter2" not in text
        text = await call_error(
            s, "repocontext_update", {"key": "repo/repo/mem/notes/g", "fields": {"title": secret}}
        )
        assert "`title`" in text and "hunter2" not in text
        text = await call_error(
            s, "repocontext_remember", {**base, "addLinks": {"related": ["src/a.py"]}}
        )
        assert "addLinks.related[0]" in text and "not a well-formed key" in text
        text = await call_error(s, "repocontext_remember", {**base, "kind": "Rumour"})
        assert "kind" in text
        for blank in ("", "  \n"):  # QA: an empty title was stored
            text = await call_error(s, "repocontext_remember", {**base, "title": blank})
            assert "`title`" in text, text
        for blank in ("", "  \n"):  # QA: update stored the blank title remember refuses
            update = {"key": "repo/repo/mem/notes/g", "fields": {"title": blank}}
            text = await call_error(s, "repocontext_update", update)
            assert "`fields.title`" in text and "blank" in text, text
        got = await call(s, "repocontext_recall", {"key": "repo/repo/mem/notes/g"})
        assert got["fields"]["body"] == fine  # rejected writes changed nothing
        assert "title" not in got["fields"]


async def test_malformed_keys_are_refused(tmp_path: Path) -> None:
    """A QA pass: `repo//mem//` and `repo/r/content/../../etc/passwd` were answered as absent
    entries, and remember took topic and id `..` (the key `repo/r/mem/../..`); the key
    grammar (spec §1.2) refuses them, and recall says so (spec §1.4: empty/malformed key)."""
    async with memory_rig(tmp_path, index=True) as (_, s):
        for key in (
            "repo//mem//",
            "repo/repo/content/../../etc/passwd",
            "repo/repo/file/./src/a.py",
            "repo/repo/nothing/x",
            "repo/repo/mem/notes",
        ):
            text = await call_error(s, "repocontext_recall", {"key": key})
            assert "`key` must be a full key" in text, (key, text)
        for dots in (".", ".."):
            args = {"repoId": "repo", "topic": dots, "id": "x", "title": "t"}
            assert "topic" in await call_error(s, "repocontext_remember", args)
            args = {"repoId": "repo", "topic": "notes", "id": dots, "title": "t"}
            assert "id" in await call_error(s, "repocontext_remember", args)
        absent = await call(s, "repocontext_recall", {"key": "repo/repo/file/src/none.py"})
        assert absent["exists"] is False and absent["kind"] == "File"


async def test_recall_reads_a_files_stored_text_by_its_content_key(tmp_path: Path) -> None:
    """The key grammar's content family (spec 1.2): recall answered it `Unknown`, so an agent
    of a server on another machine had no way to read a file's text but a context bundle."""
    async with memory_rig(tmp_path, index=True) as (_, s):
        key = "repo/repo/content/src/billing/ledger.py"
        got = await s.call_tool("repocontext_recall", {"key": key})
        view = got.structuredContent
        assert view is not None and view["exists"] is True and view["kind"] == "Content"
        body = "def post_entry(ledger, entry):\n    ledger.append(entry)\n"
        assert view["path"] == "src/billing/ledger.py" and view["fields"]["text"] == body
        file = await call(s, "repocontext_recall", {"key": "repo/repo/file/src/billing/ledger.py"})
        assert view["fields"]["digest"] == file["fields"]["digest"]  # the text of that version
        assert view["fields"]["language"] == "python"
        text = got.content[0].text  # type: ignore[union-attr]
        assert text.endswith("== src/billing/ledger.py\n" + body)  # as it reads, not escaped
        for missing in ("src/none.py", "logo.png"):  # no such file; a binary has no text
            absent = await call(s, "repocontext_recall", {"key": f"repo/repo/content/{missing}"})
            assert absent["exists"] is False and absent["kind"] == "Content"
        # a walk lists a content target without its text (recall reads it)
        link = {"repoId": "repo", "topic": "notes", "id": "n", "addLinks": {"about": [key]}}
        await call(s, "repocontext_remember", link)
        walked = await call(s, "repocontext_neighbors", {"key": "repo/repo/mem/notes/n"})
        [target] = walked["neighbors"]
        assert target["kind"] == "Content" and target["exists"] is True
        assert "text" not in target["fields"] and target["fields"]["language"] == "python"


async def test_links_staleness_and_neighbors(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (app, s):
        invoice = "repo/repo/file/src/billing/invoice.py"
        base = {"repoId": "repo", "topic": "backlog"}
        await call(
            s,
            "repocontext_remember",
            {
                **base,
                "id": "child",
                "addLinks": {"anchoredTo": [invoice], "related": ["repo/repo/file/missing.py"]},
            },
        )
        made = await call(
            s,
            "repocontext_remember",
            {
                **base,
                "id": "root",
                "addLinks": {
                    "blockedBy": ["repo/repo/mem/backlog/child", "repo/repo/mem/backlog/ghost"],
                    "anchoredTo": [invoice],
                },
            },
        )
        assert made["linksAdded"] == 3
        got = await call(s, "repocontext_recall", {"key": "repo/repo/mem/backlog/root"})
        assert got["stale"] is False and got["links"]["anchoredTo"] == [invoice]

        near = await call(s, "repocontext_neighbors", {"key": "repo/repo/mem/backlog/root"})
        assert [n["key"] for n in near["neighbors"]] == [
            invoice,
            "repo/repo/mem/backlog/child",
            "repo/repo/mem/backlog/ghost",
        ]
        assert near["neighbors"][2]["exists"] is False and near["truncated"] is False
        deep = await call(
            s, "repocontext_neighbors", {"key": "repo/repo/mem/backlog/root", "depth": 2}
        )
        assert "repo/repo/file/missing.py" in [n["key"] for n in deep["neighbors"]]
        only = await call(
            s,
            "repocontext_neighbors",
            {"key": "repo/repo/mem/backlog/root", "relation": "blockedBy", "maxNodes": 1},
        )
        assert len(only["neighbors"]) == 1 and only["truncated"] is True
        blank = await call(
            s, "repocontext_neighbors", {"key": "repo/repo/mem/backlog/root", "relation": " "}
        )
        assert blank["neighbors"] == near["neighbors"]  # a blank relation filters nothing
        # a relation the entry has no link of (a typo, or `blocks` for `blockedBy`) names the
        # ones it has: `neighbors: []` alone read as an entry with no links
        typo = await call(
            s, "repocontext_neighbors", {"key": "repo/repo/mem/backlog/root", "relation": "blocks"}
        )
        assert typo["neighbors"] == [] and typo["note"] == (
            "repo/repo/mem/backlog/root has no 'blocks' link; its relations: anchoredTo, blockedBy"
        ), typo

        # the linked file changes: recall reports the link as stale
        root = app.settings.workspace_root
        assert root is not None
        (root / "repo" / "src" / "billing" / "invoice.py").write_text("class Changed: pass\n")
        await call(s, "repocontext_refresh", {"repoId": "repo"})

        async def stale() -> bool:
            got = await call(s, "repocontext_recall", {"key": "repo/repo/mem/backlog/root"})
            return got["stale"] is True and got["staleLinks"] == [invoice]

        await wait_for(stale, 20, "the link to go stale")
        await call(
            s,
            "repocontext_update",
            {"key": "repo/repo/mem/backlog/root", "removeLinks": {"anchoredTo": [invoice]}},
        )
        got = await call(s, "repocontext_recall", {"key": "repo/repo/mem/backlog/root"})
        assert got["stale"] is False


async def test_memory_survives_reset_and_replay_and_goes_with_remove(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (_, s):
        await call(
            s,
            "repocontext_remember",
            {"repoId": "repo", "topic": "keep", "id": "k", "body": "survives"},
        )
        await call(s, "repocontext_reset_index", {"repoId": "repo"})
        got = await call(s, "repocontext_recall", {"key": "repo/repo/mem/keep/k"})
        assert got["fields"]["body"] == "survives"
    # replay: drop the views, rebuild them from the log
    settings = rig_settings(tmp_path)
    for suffix in ("", "-wal", "-shm"):
        Path(str(settings.views_path) + suffix).unlink(missing_ok=True)
    async with EmbeddedApp(settings, watch=False) as app:
        await app.runtime.run_until_idle()
        entry = app.services.memory.reader.memory.get("repo/repo/mem/keep/k")
        assert entry is not None and entry.fields["body"] == "survives"
    async with memory_rig(tmp_path) as (_, s):
        removed = await call(s, "repocontext_remove_repo", {"repoId": "repo"})
        assert removed["entriesRemoved"] >= 1
        got = await call(s, "repocontext_recall", {"key": "repo/repo/mem/keep/k"})
        assert got["exists"] is False
        # no memory for a repository that is gone; added back, a fresh entry with the same id
        # starts from nothing (the log was tombstoned too)
        remember = {"repoId": "repo", "topic": "keep", "id": "k"}
        assert "unknown repository 'repo'" in await call_error(s, "repocontext_remember", remember)
        assert settings.workspace_root is not None
        await call(s, "repocontext_add_repo", {"path": str(settings.workspace_root / "repo")})
        made = await call(s, "repocontext_remember", remember)
        assert made["created"] is True


async def test_no_memory_for_an_unknown_repository(tmp_path: Path) -> None:
    async with memory_rig(tmp_path) as (app, s):
        commands = topics.MEMORY_COMMANDS.name

        async def commands_logged() -> int:
            ends = [
                await app.log.end_offset(commands, p)
                for p in range(await app.log.partitions(commands))
            ]
            return sum(ends)

        before = await commands_logged()
        text = await call_error(
            s, "repocontext_remember", {"repoId": "nope", "topic": "notes", "body": "lost"}
        )
        # the same refusal as search and context give, and nothing reaches the log
        assert "unknown repository 'nope'" in text
        assert text == await call_error(s, "repocontext_search", {"repoId": "nope", "query": "x"})
        assert await commands_logged() == before
        text = await call_error(s, "repocontext_list_topics", {"repoId": "nope"})
        assert "unknown repository 'nope'" in text
        scan = await call(s, "repocontext_scan", {"repoId": "nope", "scope": "Memory"})
        assert scan.get("entries", []) == []
        # a registered repository is unaffected
        made = await call(s, "repocontext_remember", {"repoId": "repo", "topic": "notes"})
        assert made["created"] is True
        listed = await call(s, "repocontext_list_topics", {"repoId": "repo"})
        assert listed["topics"] == [{"topic": "notes", "count": 1}]


async def test_write_timeout_is_a_clear_error(tmp_path: Path) -> None:
    settings = rig_settings(tmp_path, memory_write_timeout_s=0.2)
    # the runtime is never started, so nothing applies the command
    async with (
        EmbeddedApp(settings, watch=False) as app,
        create_connected_server_and_client_session(app.mcp_server()) as s,
    ):
        assert settings.workspace_root is not None
        await app.service.ensure_repo(str(settings.workspace_root / "repo"), launch=False)
        started = time.monotonic()
        text = await call_error(s, "repocontext_remember", {"repoId": "repo", "topic": "n"})
        assert "did not arrive" in text and "retry with the same id" in text
        assert time.monotonic() - started < 20


async def _scan_all(s: Any, scope: str, page_size: int) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    token = None
    while True:
        args = {"repoId": "repo", "scope": scope, "pageSize": page_size}
        page = await call(s, "repocontext_scan", {**args, "continuationToken": token})
        assert len(page["entries"]) <= page_size
        entries += page["entries"]
        token = page.get("continuationToken")
        assert page["hasMore"] == (token is not None)
        if token is None:
            return entries


async def test_scan_symbols_and_packages(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (_, s):
        symbols = await _scan_all(s, "symbols", 1)
        keys = [e["key"] for e in symbols]
        assert keys == sorted(keys) and len(keys) == len(set(keys))
        expected = set()
        for path in ("src/billing/invoice.py", "src/billing/ledger.py", "src/httpServer.ts"):
            got = await call(s, "repocontext_outline", {"repoId": "repo", "path": path})
            expected |= {x["fullyQualifiedName"] for x in got["symbols"]}
        # scan names a declaration as outline does, as code imports it (src/billing has no
        # __init__.py: a namespace package below the source folder, `billing.invoice`); the
        # key keeps the name its file path gives, and recall takes either spelling
        # (symbol_import_names)
        assert {e["fullyQualifiedName"] for e in symbols} == expected
        calc = next(e for e in symbols if e["fullyQualifiedName"].endswith(".InvoiceCalculator"))
        assert calc["kind"] == "Symbol" and calc["exists"] is True
        assert calc["fullyQualifiedName"] == "billing.invoice.InvoiceCalculator"
        assert calc["key"] == "repo/repo/symbol/src.billing.invoice.InvoiceCalculator"
        by_name = {"key": f"repo/repo/symbol/{calc['fullyQualifiedName']}"}
        assert (await call(s, "repocontext_recall", by_name))["key"] == calc["key"]
        assert calc["fields"]["filePath"] == "src/billing/invoice.py"
        assert calc["fields"]["signature"] == "class InvoiceCalculator"
        assert (calc["fields"]["startLine"], calc["fields"]["endLine"]) == ("1", "3")
        assert calc.get("expires") is None and calc.get("stale") is None  # bulk read: not evaluated

        packages = await _scan_all(s, "Packages", 2)
        assert [(e["key"], e["path"], e["fields"]["fileCount"]) for e in packages] == [
            ("repo/repo/pkg/docs", "docs", "1"),
            ("repo/repo/pkg/src", "src", "1"),
            ("repo/repo/pkg/src/billing", "src/billing", "2"),
        ]
        assert all(e["kind"] == "Package" for e in packages)

        # recall and neighbors read a structural key as scan lists it (spec §1.3), with
        # expiry and staleness evaluated (per-key read): structural records never expire
        # (an empty `staleLinks` is left out on the wire, like every empty optional field)
        evaluated = {"expires": False, "hasExpired": False, "stale": False}
        billing = next(e for e in packages if e["path"] == "src/billing")
        file_key = "repo/repo/file/src/billing/invoice.py"
        scanned = {e["key"]: e for e in await _scan_all(s, "Files", 100)}
        linked = [calc["key"], billing["key"], file_key]
        for key, listed in (
            (calc["key"], calc),
            (billing["key"], billing),
            (file_key, scanned[file_key]),
        ):
            got = await call(s, "repocontext_recall", {"key": key})
            assert got == {**listed, **evaluated}, key
        await call(
            s,
            "repocontext_remember",
            {"repoId": "repo", "topic": "notes", "id": "calc", "addLinks": {"about": linked}},
        )
        near = await call(s, "repocontext_neighbors", {"key": "repo/repo/mem/notes/calc"})
        assert {n["key"]: n["fields"] for n in near["neighbors"]} == {
            calc["key"]: calc["fields"],
            billing["key"]: billing["fields"],
            file_key: scanned[file_key]["fields"],
        }
        for absent, kind in (
            ("repo/repo/symbol/no.such.Name", "Symbol"),
            ("repo/repo/pkg/src/bill", "Package"),
        ):
            got = await call(s, "repocontext_recall", {"key": absent})
            assert (got["exists"], got["kind"], got.get("fields", {})) == (False, kind, {}), absent
        text = await call_error(
            s, "repocontext_scan", {"repoId": "repo", "scope": "Symbols", "pathPrefix": "src"}
        )
        assert "pathPrefix" in text
        text = await call_error(s, "repocontext_scan", {"repoId": "repo", "scope": "Blobs"})
        assert "Packages" in text and "Symbols" in text


async def test_one_write_links_a_bounded_number_of_targets(tmp_path: Path) -> None:
    """A QA pass: 50,000 targets in one remember ran past the call's deadline, then applied;
    the tool's schema bounds a write's relations and targets and says so before it runs."""
    async with memory_rig(tmp_path) as (_, s):
        tool = next(t for t in (await s.list_tools()).tools if t.name == "repocontext_remember")
        links = tool.inputSchema["properties"]["addLinks"]
        assert links["maxProperties"] == 32 and links["additionalProperties"]["maxItems"] == 256
        many = {"related": [f"repo/repo/file/src/f{i}.py" for i in range(257)]}
        args = {"repoId": "repo", "topic": "notes", "id": "wide", "addLinks": many}
        text = await call_error(s, "repocontext_remember", args)
        assert "addLinks" in text and "256" in text, text
        absent = await call(s, "repocontext_recall", {"key": "repo/repo/mem/notes/wide"})
        assert absent["exists"] is False  # refused before anything was written


async def test_tags_are_short_labels(tmp_path: Path) -> None:
    """A QA pass: one remember of 256 tags of 65,000 characters each stored 16 MB in one
    entry (scan then took 25 s of the 30 s deadline, search answered 16 MB), and the tags
    "", " " and NUL were stored. A tag is a label of at most 256 characters, not blank, no
    control characters; removeTags still takes any string, so old ones can be removed."""
    async with memory_rig(tmp_path) as (_, s):
        base = {"repoId": "repo", "topic": "notes", "id": "tags", "title": "t"}
        for bad in ("x" * 257, "", "  ", "a\x00b", " lead"):
            text = await call_error(s, "repocontext_remember", {**base, "tags": ["ok", bad]})
            assert "`tags.1`" in text, (bad, text)
        key = "repo/repo/mem/notes/tags"
        await call(s, "repocontext_remember", {**base, "tags": ["x" * 256, "priority:P0"]})
        text = await call_error(s, "repocontext_update", {"key": key, "addTags": ["y" * 300]})
        assert "`addTags.0`" in text, text
        done = await call(s, "repocontext_update", {"key": key, "removeTags": ["z" * 300]})
        assert done["tagsRemoved"] == 0
        got = await call(s, "repocontext_recall", {"key": key})
        assert got["tags"] == ["priority:P0", "x" * 256]


async def test_a_kind_that_cannot_change_says_so(tmp_path: Path) -> None:
    """Kind is fixed at creation (spec §1.5). A QA pass: remember kind Decision on an
    existing Note answered like any merge, and recall still said Note: the agent believed
    it had recorded a decision. The answer now says the kind stayed."""
    async with memory_rig(tmp_path) as (_, s):
        base = {"repoId": "repo", "topic": "notes", "id": "k", "title": "t"}
        await call(s, "repocontext_remember", {**base, "kind": "Note"})
        again = await call(s, "repocontext_remember", {**base, "kind": "Decision"})
        assert "kind" in again.get("note", "") and "Note" in again["note"], again
        got = await call(s, "repocontext_recall", {"key": "repo/repo/mem/notes/k"})
        assert got["fields"]["kind"] == "Note"
        same = await call(s, "repocontext_remember", {**base, "kind": "Note"})
        assert "note" not in same, same
