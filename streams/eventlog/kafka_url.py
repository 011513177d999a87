"""The `kafka://` log URL: `kafka://h1:9092,h2:9092?prefix=p.&replication_factor=3`.

Checked whole when a process starts, so a typo is refused with a line that names it. Before,
a port that was not a number or a replication factor that was not one reached aiokafka or
`int()` and the CLI printed `internal error (ValueError: ...)`; a prefix with characters
Kafka refuses in topic names failed only when the topics were created.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from streams.errors import EventLogError

OPTIONS = ("prefix", "replication_factor", "client_id")
# Kafka's legal topic (and group) name characters; the prefix is part of every name
_PREFIX = re.compile(r"^[A-Za-z0-9._-]*$")
# the port may be left out: the Kafka client's default (9092) applies, as it always did
_HOST_PORT = re.compile(r"^(?P<host>\[[0-9A-Fa-f:.]+\]|[^:\s\[\]]+)(?::(?P<port>[0-9]{1,5}))?$")
USAGE = "kafka://host:port[,host:port][?prefix=P&replication_factor=N]"


def parse_kafka_url(url: str) -> tuple[str, dict[str, str]]:
    """`kafka://h1:9092,h2:9092?prefix=p.&replication_factor=3` -> (bootstrap, options);
    EventLogError naming the part that is wrong."""
    parts = urlsplit(url)
    if parts.scheme != "kafka" or not parts.netloc:
        raise EventLogError(f"expected {USAGE}, got {url!r}")
    for server in parts.netloc.split(","):
        check_server(url, server)
    opts = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
    check_options(url, opts)
    return parts.netloc, opts


def check_server(url: str, server: str) -> None:
    """One bootstrap server: a host and a port aiokafka can connect to."""
    match = _HOST_PORT.match(server.strip())
    if match is None or not 0 < int(match["port"] or 9092) < 65536:
        raise EventLogError(
            f"{url}: {server!r} is not host:port with a port from 1 to 65535 (expected {USAGE})"
        )


def check_options(url: str, opts: dict[str, str]) -> None:
    """The query options: known names, values the broker will accept."""
    unknown = set(opts) - set(OPTIONS)
    if unknown:
        raise EventLogError(f"{url}: unknown option(s) {', '.join(sorted(unknown))}")
    factor = opts.get("replication_factor", "1")
    if not factor.isdigit() or not 0 < int(factor) <= 32767:
        raise EventLogError(
            f"{url}: replication_factor must be a positive integer (got {factor!r})"
        )
    if not _PREFIX.match(opts.get("prefix", "")):
        raise EventLogError(
            f"{url}: prefix may hold only letters, digits, '.', '_' and '-' "
            f"(Kafka's topic name characters; got {opts['prefix']!r})"
        )
