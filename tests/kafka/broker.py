"""A real Apache Kafka broker (KRaft, one node, loopback only) for the tests.

The jars come from Maven Central through the machine's Maven (`tests/kafka/pom.xml`, cached in
~/.m2 as Maven does) and run on the machine's Java 17: no Docker, no download at run time
beyond Maven's. `KafkaBroker.start()` formats a fresh storage dir, starts `kafka.Kafka` on two
free loopback ports with a 512 MiB heap, and returns once the broker answers a metadata
request (polled with a deadline). `stop()` ends it (SIGTERM, then SIGKILL after a bound).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import shutil
import socket
import subprocess
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from aiokafka.admin import AIOKafkaAdminClient

POM = Path(__file__).resolve().parent / "pom.xml"
START_TIMEOUT_S = 120.0


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
    def __init__(self, workdir: Path, *, heap: str = "512m") -> None:
        self.workdir = workdir
        self.heap = heap
        self.port = 0
        self.controller_port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = workdir / "broker.log"
        self._classpath = ""
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="kafka-broker-probe")
        self._cluster_id = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")

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
                    f"listeners=PLAINTEXT://127.0.0.1:{self.port},"
                    f"CONTROLLER://127.0.0.1:{self.controller_port}",
                    f"advertised.listeners=PLAINTEXT://127.0.0.1:{self.port}",
                    "controller.listener.names=CONTROLLER",
                    "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                    "inter.broker.listener.name=PLAINTEXT",
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

    def start(self, cache_dir: Path) -> None:
        self._classpath = broker_classpath(cache_dir)
        self.port, self.controller_port = free_port(), free_port()
        self.workdir.mkdir(parents=True, exist_ok=True)
        config = self._write_config()
        fmt = subprocess.run(
            self._java(
                "kafka.tools.StorageTool", "format", "-t", self._cluster_id, "-c", str(config)
            ),
            capture_output=True,
            text=True,
            timeout=120,
        )
        if fmt.returncode != 0:
            raise BrokerError(f"kafka storage format failed:\n{fmt.stdout}\n{fmt.stderr}")
        self.launch(config)

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
            admin = AIOKafkaAdminClient(bootstrap_servers=self.bootstrap, request_timeout_ms=5000)
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
