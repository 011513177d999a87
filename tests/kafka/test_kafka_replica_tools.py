"""A query replica offers no tool that registers or removes repositories.

In the distributed deployment only git sources write repos.v1 and files.v1
(deploy/DISTRIBUTED.md, "Security"). A replica offered `repocontext_remove_repo`: on an open
broker it tombstoned a git source's repository (1,600 files) for every replica, and the
source, whose last commit had been published, never published those files again. The tool is
neither listed nor accepted on a replica now; memory and claim tools still are.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import codec
from schemas.events import RepoRegistration
from schemas.topics import FILES, REPOS
from streams.eventlog.base import LogRecord
from streams.eventlog.kafka import KafkaEventLog
from tests.integration.mcp_helpers import http_session
from tests.kafka.test_kafka_worker import Replica, klog, read_all, upsert

pytestmark = pytest.mark.anyio
__all__ = ["klog"]  # the fixture, imported for this module's tests


async def test_a_replica_offers_no_tool_that_removes_a_repository(
    klog: KafkaEventLog, tmp_path: Path
) -> None:
    registration = RepoRegistration(repo_id="demo", root=None, registered_at=1.0)
    await klog.append(REPOS.name, [LogRecord("demo", codec.encode(registration))])
    await klog.append(FILES.name, [upsert("kept.py", "def kept():\n    pass\n")])
    replica = Replica(klog, tmp_path)
    try:
        await replica.wait_live()
        async with http_session(replica.base) as session:
            names = {tool.name for tool in (await session.list_tools()).tools}
            assert "repocontext_remove_repo" not in names and "repocontext_add_repo" not in names
            assert {"repocontext_remember", "repocontext_claim"} <= names
            refused = await session.call_tool("repocontext_remove_repo", {"repoId": "demo"})
            assert refused.isError
        assert [r.value for r in await read_all(klog, REPOS.name)][-1] is not None
        assert all(r.value is not None for r in await read_all(klog, FILES.name))
    finally:
        replica.proc.terminate()
        assert replica.proc.wait(timeout=30) == 0, replica.out.read_text()[-3000:]
