"""The Kafka login in the settings (deploy/DISTRIBUTED.md, "Security"): whole or refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from query_api.settings import Settings
from streams.errors import EventLogError
from streams.eventlog.kafka_security import KafkaSecurity


def test_a_half_configured_login_is_refused_at_start() -> None:
    with pytest.raises(ValidationError, match="REPOCONTEXT_KAFKA_SASL_PASSWORD missing"):
        Settings(kafka_sasl_username="repocontext-query")
    with pytest.raises(ValidationError, match="REPOCONTEXT_KAFKA_SASL_USERNAME missing"):
        Settings(kafka_sasl_password="x", kafka_ssl_ca_file=Path("/ca.crt"))
    whole = Settings(
        kafka_sasl_username="u", kafka_sasl_password="s3cret-value", log_url="kafka://127.0.0.1:1"
    )
    assert whole.event_log_options()["security"].protocol == "SASL_PLAINTEXT"
    assert "s3cret-value" not in repr(whole.kafka_security())


def test_no_login_means_an_open_broker_and_sqlite_ignores_it() -> None:
    assert Settings(log_url="kafka://127.0.0.1:1").event_log_options() == {}
    sqlite = Settings(kafka_sasl_username="u", kafka_sasl_password="s", log_url="sqlite:///x.db")
    assert sqlite.event_log_options() == {}


def test_a_missing_ca_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(EventLogError, match=r"ca\.crt does not exist"):
        KafkaSecurity("SCRAM-SHA-512", "u", "p", tmp_path / "ca.crt")
    (tmp_path / "ca.crt").write_text("x")
    assert KafkaSecurity("SCRAM-SHA-512", "u", "p", tmp_path / "ca.crt").protocol == "SASL_SSL"
