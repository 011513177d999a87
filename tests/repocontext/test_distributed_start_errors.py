"""The distributed processes refuse a wrong or unreachable log with one clear line each.

An operator's first try is often a typo in REPOCONTEXT_LOG_URL or a broker that is not up
yet. Each process (`topics`, `worker`, `query`, `git-source`) must then exit 1 with a line
that names the problem, never a traceback (docs/cli.md, "Errors"). Before: a port that was
not a number printed `internal error (ValueError: ...)`, a worker that could not reach the
broker logged its re-derivation check's whole traceback first, and Kafka clients left open
by a start that failed or was cancelled logged `Unclosed AIOKafkaProducer` at exit.
"""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest

from streams.errors import EventLogError
from streams.eventlog.kafka_url import parse_kafka_url
from tests.conftest import child_env, cli_command, free_port

COMMANDS = (
    ("topics",),
    ("worker",),
    ("query", "--port", "0"),
    ("git-source", "file:///nonexistent", "--repo-id", "demo", "--once"),
)


def run(tmp_path: Path, url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = child_env(tmp_path / "data")
    env["REPOCONTEXT_LOG_URL"] = url
    return subprocess.run(cli_command(*args), env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_a_port_that_is_not_a_number_is_named(tmp_path: Path, args: tuple[str, ...]) -> None:
    done = run(tmp_path, "kafka://127.0.0.1:notaport", *args)
    assert done.returncode == 1, done.stderr
    assert "'127.0.0.1:notaport' is not host:port" in done.stderr, done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_an_unreachable_broker_is_one_line_without_traceback(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    port = free_port()  # nothing listens there
    done = run(tmp_path, f"kafka://127.0.0.1:{port}", *args)
    assert done.returncode == 1, done.stderr
    assert f"cannot reach Kafka at 127.0.0.1:{port}" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert "Unclosed" not in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("url", "names"),
    [
        ("kafka://127.0.0.1:99999", "a port from 1 to 65535"),
        ("kafka://h1:9092,:9093", "':9093' is not host:port"),
        ("kafka://h1:9092?replication_factor=three", "replication_factor must be a positive"),
        ("kafka://h1:9092?replication_factor=0", "replication_factor must be a positive"),
        ("kafka://h1:9092?prefix=team/a.", "prefix may hold only"),
        ("kafka://h1:9092?partitions=3", "unknown option(s) partitions"),
    ],
)
def test_a_wrong_kafka_url_names_the_part(url: str, names: str) -> None:
    with pytest.raises(EventLogError) as refused:
        parse_kafka_url(url)
    assert names in str(refused.value)


def test_the_urls_the_docs_and_manifests_use_are_accepted() -> None:
    assert parse_kafka_url("kafka://repocontext-kafka-bootstrap:9093?replication_factor=3") == (
        "repocontext-kafka-bootstrap:9093",
        {"replication_factor": "3"},
    )
    assert parse_kafka_url("kafka://h1:9092,h2:9092?prefix=team-a.")[0] == "h1:9092,h2:9092"
    assert parse_kafka_url("kafka://[::1]:9092")[0] == "[::1]:9092"
    assert parse_kafka_url("kafka://kafka")[0] == "kafka"  # the client's default port


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (("worker", "--step", "bogus"), "--step: unknown step(s) bogus"),
        (("worker", "--step", "content", "--rederive", "memory"), "--rederive memory"),
        (("git-source", "file:///nonexistent", "--once"), "--repo-id is required"),
    ],
    ids=["unknown-step", "rederive-memory", "no-repo-id"],
)
def test_a_wrong_command_line_is_exit_2_naming_the_option(
    tmp_path: Path, args: tuple[str, ...], names: str
) -> None:
    """docs/cli.md: exit 2 when the command line is wrong (these exited 1)."""
    done = run(tmp_path, f"kafka://127.0.0.1:{free_port()}", *args)
    assert done.returncode == 2, done.stderr
    assert names in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_worker_whose_metrics_port_is_taken_names_that_option(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        url = f"kafka://127.0.0.1:{free_port()}"
        done = run(tmp_path, url, "worker", "--metrics-port", str(port))
    assert done.returncode == 1, done.stderr
    assert "already in use" in done.stderr and "pass --metrics-port" in done.stderr, done.stderr


def test_a_half_configured_login_names_the_variable_and_never_a_secret(tmp_path: Path) -> None:
    """The check over several settings printed its input, every setting given: the Kafka
    password, the Qdrant API key and the git password went to stderr (and the pod's log)."""
    env = child_env(tmp_path / "data")
    env["REPOCONTEXT_LOG_URL"] = f"kafka://127.0.0.1:{free_port()}"
    secrets = {
        "REPOCONTEXT_KAFKA_SASL_PASSWORD": "kafka-secret-4711",
        "REPOCONTEXT_QDRANT_API_KEY": "qdrant-secret-4712",
        "REPOCONTEXT_GIT_PASSWORD": "git-secret-4713",
    }
    env.update(secrets)
    done = subprocess.run(
        cli_command("worker"), env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stderr
    assert "REPOCONTEXT_KAFKA_SASL_USERNAME missing" in done.stderr, done.stderr
    assert not [s for s in secrets.values() if s in done.stderr + done.stdout], done.stderr
