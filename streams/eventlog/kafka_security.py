"""How a process authenticates to Kafka: SASL/SCRAM over plain TCP or TLS (deploy/DISTRIBUTED.md,
"Security").

The broker's ACLs (streams/component_acls.py) decide what each principal may read and write, so
every client of one process (the EventLog's admin, producer and reader, and faust's consumers
and producers) must log in as the same user. This is the one place both client libraries get
their connection settings from; the values come from query_api/settings.py (Secrets in the
manifests), never from the environment directly.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from streams.errors import EventLogError

if TYPE_CHECKING:
    import faust

SaslMechanism = Literal["SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN"]


@dataclass(frozen=True)
class KafkaSecurity:
    """SASL credentials, and the CA that signs the broker's certificate when TLS is on."""

    mechanism: SaslMechanism
    username: str
    password: str = field(repr=False)
    ca_file: Path | None = None  # None: SASL over plain TCP (SASL_PLAINTEXT)

    def __post_init__(self) -> None:
        if not self.username or not self.password:
            raise EventLogError("Kafka SASL needs both a username and a password")
        if self.ca_file is not None and not self.ca_file.is_file():
            raise EventLogError(f"Kafka TLS CA file {self.ca_file} does not exist")

    @property
    def protocol(self) -> str:
        return "SASL_SSL" if self.ca_file is not None else "SASL_PLAINTEXT"

    def ssl_context(self) -> ssl.SSLContext | None:
        """A verifying context trusting only `ca_file` (hostname checked), or None."""
        if self.ca_file is None:
            return None
        return ssl.create_default_context(cafile=str(self.ca_file))

    def aiokafka_options(self) -> dict[str, Any]:
        """Keyword arguments for AIOKafkaAdminClient / AIOKafkaProducer / AIOKafkaConsumer."""
        return {
            "security_protocol": self.protocol,
            "sasl_mechanism": self.mechanism,
            "sasl_plain_username": self.username,
            "sasl_plain_password": self.password,
            "ssl_context": self.ssl_context(),
        }

    async def login_refusal(self, bootstrap: str, timeout_ms: int) -> str | None:
        """Why the first broker refuses this login, or None. aiokafka reports a refused login
        as "Unable to bootstrap" (a connection error, which callers retry as an unreachable
        broker); one direct connection recovers the broker's answer."""
        from aiokafka.conn import create_conn
        from aiokafka.errors import AuthenticationFailedError, SaslAuthenticationFailed

        host, _, port = bootstrap.split(",")[0].rpartition(":")
        options = self.aiokafka_options()
        try:
            conn = await create_conn(
                host,
                int(port),
                request_timeout_ms=timeout_ms,
                security_protocol=options["security_protocol"],
                ssl_context=options["ssl_context"],
                sasl_mechanism=self.mechanism,
                sasl_plain_username=self.username,
                sasl_plain_password=self.password,
            )
        except (AuthenticationFailedError, SaslAuthenticationFailed) as exc:
            return (
                f"the broker refused the {self.mechanism} login of user {self.username!r} "
                f"({exc}): check the username and password (REPOCONTEXT_KAFKA_SASL_USERNAME, "
                "REPOCONTEXT_KAFKA_SASL_PASSWORD)"
            )
        except Exception:  # unreachable, TLS trouble...: the caller's own error says it
            return None
        conn.close()
        return None

    def faust_credentials(self) -> faust.SASLCredentials:
        """faust's equivalent (SASL_SSL when an SSL context is given, else SASL_PLAINTEXT)."""
        import faust  # only the worker needs it

        return faust.SASLCredentials(
            username=self.username,
            password=self.password,
            mechanism=self.mechanism,
            ssl_context=self.ssl_context(),
        )
