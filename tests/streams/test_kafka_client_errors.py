"""The Kafka event log's commit and offset reads when the client, not the broker, fails.

aiokafka raises some errors itself (a node not ready while the broker is away, a lost
connection); they carry no broker error code. A commit or an offset read that meets one must
end as the log being unreachable (readers serve and retry), never as an AttributeError that
shows a traceback in the worker's log. No broker here: the admin client is aiokafka's, stood
in for by a stand-in that fails the way it does when the broker has gone.
"""

from __future__ import annotations

from typing import cast

import pytest
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.errors import GroupAuthorizationFailedError, KafkaError, NodeNotReadyError

from streams.errors import LogUnreachable
from streams.eventlog.kafka import KafkaEventLog, broker_code

pytestmark = pytest.mark.anyio


class _AwayAdmin:
    """Fails every coordinator lookup with the error given, as aiokafka's admin client does."""

    def __init__(self, error: KafkaError) -> None:
        self.error = error
        self.calls = 0

    async def find_coordinator(self, group_id: str) -> int:
        self.calls += 1
        raise self.error

    async def close(self) -> None:
        return None


def log_with(admin: _AwayAdmin) -> KafkaEventLog:
    log = KafkaEventLog("kafka://127.0.0.1:1?prefix=t.", request_timeout_s=0.3)
    log._admin = cast(AIOKafkaAdminClient, admin)
    return log


def test_only_broker_responses_have_a_code() -> None:
    assert broker_code(NodeNotReadyError("node 1")) is None
    assert broker_code(GroupAuthorizationFailedError()) == 30


async def test_a_commit_while_no_node_is_ready_retries_then_says_unreachable() -> None:
    admin = _AwayAdmin(NodeNotReadyError("Attempt to send a request to node 1"))
    log = log_with(admin)
    with pytest.raises(LogUnreachable, match="commit of views failed"):
        await log._commit("views", {("files.v1", 0): 3})
    assert admin.calls > 1  # retried until the request deadline, not given up at once


async def test_an_offset_read_while_no_node_is_ready_says_unreachable() -> None:
    log = log_with(_AwayAdmin(NodeNotReadyError("Attempt to send a request to node 1")))
    with pytest.raises(LogUnreachable, match="cannot read offsets of views"):
        await log._fetch_committed("views", [("files.v1", 0)])
