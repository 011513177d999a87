"""A real Apache Kafka broker (KRaft, one node, loopback only) for the tests.

The jars come from Maven Central through the machine's Maven (`tests/kafka/pom.xml`, cached in
~/.m2 as Maven does) and run on the machine's Java 17: no Docker, no download at run time
beyond Maven's. `KafkaBroker.start()` formats a fresh storage dir, starts `kafka.Kafka` on two
free loopback ports with a 512 MiB heap, and returns once the broker answers a metadata
request (polled with a deadline). `stop()` ends it (SIGTERM, then SIGKILL after a bound).

With `scram_users` it is a secured broker (deploy/DISTRIBUTED.md, "Security"), like Strimzi's
listener: its one client listener is SASL_SSL (a throwaway CA, tests/kafka/broker_tls.py;
clients trust `certificates.ca_file`) with SCRAM-SHA-512 (the users are written into the
metadata log by `format --add-scram`, as KRaft requires), StandardAuthorizer with no access
unless an ACL grants it, and `admin` (inter-broker login) as super user. `grant()` adds ACLs
through CreateAcls.java. The controller listener stays plaintext on loopback (KRaft's controller
cannot use SCRAM), so its anonymous principal (the broker registering itself) is a super user.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import shutil
import socket
import ssl
import subprocess
import time
import uuid
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from aiokafka.admin import AIOKafkaAdminClient

from tests.kafka.broker_tls import BrokerCertificates, write_certificates

POM = Path(__file__).resolve().parent / "pom.xml"
CREATE_ACLS = Path(__file__).resolve().parent / "CreateAcls.java"
ADMIN_USER = "admin"
START_TIMEOUT_S = 120.0


def kafka_cluster_id() -> str:
    """A random cluster id as Kafka draws one: never starting with '-', which the
    storage tool's argument parser would read as an option (1 draw in 64 did)."""
    while True:
        candidate = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        if not candidate.startswith("-"):
            return candidate


class BrokerError(RuntimeError):
    pass


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        raise BrokerError(
            f"`{tool}` is not on PATH: the Kafka tests need Java 17+ and Maven "
            "(Debian: apt-get install openjdk-17-jre-headless maven)"
        )
    return path


def broker_classpath(cache_dir: Path) -> str:
    """The broker's classpath, resolved by Maven once per pom version (cached beside ~/.m2)."""
    digest = hashlib.sha256(POM.read_bytes()).hexdigest()[:16]
    cached = cache_dir / f"kafka-classpath-{digest}.txt"
    if cached.exists():
        classpath = cached.read_text().strip()
        if all(Path(p).exists() for p in classpath.split(os.pathsep)):
            return classpath
    cache_dir.mkdir(parents=True, exist_ok=True)
    out = cache_dir / f"kafka-classpath-{digest}.tmp"
    proc = subprocess.run(
        [
            _need("mvn"),
            "-q",
            "-B",
            "-f",
            str(POM),
            "dependency:build-classpath",
            f"-Dmdep.outputFile={out}",
            "-Dmdep.includeScope=runtime",
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    if proc.returncode != 0:
        raise BrokerError(f"mvn could not resolve the Kafka broker:\n{proc.stdout[-4000:]}")
    out.replace(cached)
    return cached.read_text().strip()


class KafkaBroker:
    def __init__(
        self, workdir: Path, *, heap: str = "512m", scram_users: Mapping[str, str] | None = None
    ) -> None:
        self.workdir = workdir
        self.heap = heap
        self.secured = scram_users is not None
        self.admin_password = uuid.uuid4().hex
        self.scram_users = {ADMIN_USER: self.admin_password, **(scram_users or {})}
        self.certificates: BrokerCertificates | None = None  # written at start when secured
        self.port = 0
        self.controller_port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = workdir / "broker.log"
        self._classpath = ""
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="kafka-broker-probe")
        self._cluster_id = kafka_cluster_id()

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def _java(self, *args: str) -> list[str]:
        return [
            _need("java"),
            f"-Xmx{self.heap}",
            "-Xms64m",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",  # C1 only: starts faster on 2 cores
            "-Djava.awt.headless=true",
            "-cp",
            self._classpath,
            *args,
        ]

    def _write_config(self) -> Path:
        data = self.workdir / "data"
        config = self.workdir / "server.properties"
        config.write_text(
            "\n".join(
                [
                    "process.roles=broker,controller",
                    "node.id=1",
                    f"controller.quorum.voters=1@127.0.0.1:{self.controller_port}",
                    *self._listener_config(),
                    "controller.listener.names=CONTROLLER",
                    f"log.dirs={data}",
                    "offsets.topic.replication.factor=1",
                    "offsets.topic.num.partitions=1",
                    "transaction.state.log.replication.factor=1",
                    "transaction.state.log.min.isr=1",
                    "share.coordinator.state.topic.replication.factor=1",
                    "group.initial.rebalance.delay.ms=0",
                    "auto.create.topics.enable=false",
                    "num.network.threads=2",
                    "num.io.threads=2",
                    "background.threads=2",
                    "log.cleaner.threads=1",
                    "log.cleaner.backoff.ms=200",  # tests wait on the cleaner
                    "log.cleaner.dedupe.buffer.size=8388608",
                    "log.retention.check.interval.ms=500",
                    "log.initial.task.delay.ms=0",
                    "",
                ]
            )
        )
        return config

    def _listener_config(self) -> list[str]:
        kind = "SASL_SSL" if self.secured else "PLAINTEXT"
        lines = [
            f"listeners={kind}://127.0.0.1:{self.port},"
            f"CONTROLLER://127.0.0.1:{self.controller_port}",
            f"advertised.listeners={kind}://127.0.0.1:{self.port}",
            f"listener.security.protocol.map={kind}:{kind},CONTROLLER:PLAINTEXT",
            f"inter.broker.listener.name={kind}",
        ]
        if self.certificates is not None:
            lines += [
                "ssl.keystore.type=PEM",
                f"ssl.keystore.location={self.certificates.keystore}",
                "ssl.truststore.type=PEM",  # the broker's own inter-broker connection
                f"ssl.truststore.location={self.certificates.ca_file}",
                "sasl.enabled.mechanisms=SCRAM-SHA-512",
                "sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512",
                "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config="
                + self._jaas(ADMIN_USER, self.admin_password),
                "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                f"super.users=User:{ADMIN_USER};User:ANONYMOUS",
                "allow.everyone.if.no.acl.found=false",
            ]
        return lines

    @staticmethod
    def _jaas(user: str, password: str) -> str:
        return (
            "org.apache.kafka.common.security.scram.ScramLoginModule required "
            f'username="{user}" password="{password}";'
        )

    def client_options(self, user: str = ADMIN_USER) -> dict[str, Any]:
        """aiokafka keyword arguments logging in as `user` (nothing on an open broker)."""
        if self.certificates is None:
            return {}
        return {
            "security_protocol": "SASL_SSL",
            "ssl_context": ssl.create_default_context(cafile=str(self.certificates.ca_file)),
            "sasl_mechanism": "SCRAM-SHA-512",
            "sasl_plain_username": user,
            "sasl_plain_password": self.scram_users[user],
        }

    def grant(self, acls: Iterable[tuple[str, str, str, str, str]]) -> None:
        """Create ACLs: (principal, TOPIC|GROUP, name, LITERAL|PREFIXED, operation) each."""
        assert self.certificates is not None, "ACLs need a secured broker"
        lines = "\n".join(" ".join(acl) for acl in acls) + "\n"
        done = subprocess.run(
            self._java(
                str(CREATE_ACLS),
                self.bootstrap,
                ADMIN_USER,
                self.admin_password,
                str(self.certificates.ca_file),
            ),
            input=lines,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0:
            raise BrokerError(f"creating ACLs failed:\n{done.stdout}\n{done.stderr[-4000:]}")

    def start(self, cache_dir: Path) -> None:
        self._classpath = broker_classpath(cache_dir)
        self.port, self.controller_port = free_port(), free_port()
        self.workdir.mkdir(parents=True, exist_ok=True)
        if self.secured:
            self.certificates = write_certificates(self.workdir / "tls")
        config = self._write_config()
        fmt = subprocess.run(
            self._java(
                "kafka.tools.StorageTool",
                "format",
                "-t",
                self._cluster_id,
                "-c",
                str(config),
                *self._scram_arguments(),
            ),
            capture_output=True,
            text=True,
            timeout=120,
        )
        if fmt.returncode != 0:
            raise BrokerError(f"kafka storage format failed:\n{fmt.stdout}\n{fmt.stderr}")
        self.launch(config)

    def _scram_arguments(self) -> list[str]:
        if not self.secured:
            return []
        out = []
        for user, password in self.scram_users.items():
            out += ["--add-scram", f"SCRAM-SHA-512=[name={user},password={password}]"]
        return out

    def launch(self, config: Path | None = None) -> None:
        """(Re)start the broker process on the same ports and storage."""
        config = config or self.workdir / "server.properties"
        log = open(self.log_path, "ab")  # noqa: SIM115 (the child owns it)
        self.proc = subprocess.Popen(
            self._java("kafka.Kafka", str(config)),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        log.close()
        self.wait_ready()

    def wait_ready(self, timeout: float = START_TIMEOUT_S) -> None:
        async def answers() -> bool:
            admin = AIOKafkaAdminClient(
                bootstrap_servers=self.bootstrap,
                request_timeout_ms=5000,
                **self.client_options(),
            )
            try:
                await admin.start()
                cluster = await admin.describe_cluster()
                return bool(cluster["brokers"])
            except Exception:
                return False
            finally:
                await admin.close()

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise BrokerError(f"kafka exited early:\n{self.tail()}")
            # a thread of its own: the caller may be inside a running event loop
            if self._port_open() and self._pool.submit(asyncio.run, answers()).result():
                return
            time.sleep(0.1)
        raise BrokerError(f"kafka did not answer within {timeout:.0f} s:\n{self.tail()}")

    def _port_open(self) -> bool:
        with socket.socket() as sock:
            sock.settimeout(0.5)
            return sock.connect_ex(("127.0.0.1", self.port)) == 0

    def tail(self, chars: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def stop(self, timeout: float = 30.0) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
