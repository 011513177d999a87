"""Every moment in an answer is written one way (QA: lastIngested, createdAt and expiresAtUtc
came with 6 or 7 fractional digits, and `isoformat()` drops the fraction at 0 µs): ISO-8601
"O", seven digits, `Z` (schemas/timestamps.py). Real app and MCP client."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from schemas.timestamps import iso_utc
from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio
O_FORMAT = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$")


def test_a_whole_second_keeps_its_fraction() -> None:
    assert iso_utc(1_700_000_000.0) == "2023-11-14T22:13:20.0000000Z"
    assert iso_utc(1_700_000_000.25) == "2023-11-14T22:13:20.2500000Z"
    assert iso_utc(None) is None


async def test_every_timestamp_has_seven_digits(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (_, s):
        args = {"repoId": "repo", "topic": "notes", "id": "t", "title": "x", "ttlSeconds": 600}
        made = await call(s, "repocontext_remember", args)
        got = await call(s, "repocontext_recall", {"key": made["key"]})
        repos = await call(s, "repocontext_list_repos", {})
        job = await call(s, "repocontext_index_status", {"repoId": "repo"})
        file = await call(s, "repocontext_recall", {"key": "repo/repo/file/docs/guide.md"})
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": "guide"})
        hit = next(h for h in found["hits"] if h["entry"]["kind"] == "File")
        stamps = {
            "remember.expiresAtUtc": made["expiresAtUtc"],
            "recall.expiresAtUtc": got["expiresAtUtc"],
            "recall.createdAt": got["fields"]["createdAt"],
            "list_repos.lastIngested": repos["repositories"][0]["lastIngested"],
            "index_status.startedAt": job["startedAt"],
            "index_status.completedAt": job["completedAt"],
            "file.lastIngested": file["fields"]["lastIngested"],
            "search hit lastIngested": hit["entry"]["fields"]["lastIngested"],
        }
        odd = {name: value for name, value in stamps.items() if not O_FORMAT.match(value)}
        assert odd == {}
