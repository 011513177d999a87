"""The one settings object of the query service / embedded deployable.

Built once by the CLI (from REPOCONTEXT_* environment variables, then command-line flags)
and passed down; nothing else reads the environment.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from schemas.events import INDEXED_CHARS_RANGE, MAX_INDEXED_CHARS
from streams.eventlog.kafka_security import KafkaSecurity, SaslMechanism
from streams.runtime.shards import ShardAssignment


def cache_base() -> Path:
    """`$XDG_CACHE_HOME/repocontext` (or ~/.cache/repocontext); without a usable home, a
    directory of this user's under the system's temporary one (never the working directory:
    that is the repository an agent starts in, and the index would take in its own files)."""
    cache = os.environ.get("XDG_CACHE_HOME")
    if cache:
        return Path(cache) / "repocontext"
    home = Path.home()
    if str(home) in ("", "/") or not home.exists():
        fallback = Path(tempfile.gettempdir()) / f"repocontext-{os.getuid()}"
        if fallback.exists() and fallback.stat().st_uid != os.getuid():
            return Path(tempfile.mkdtemp(prefix="repocontext-"))  # someone else's: not ours
        return fallback
    return home / ".cache" / "repocontext"


def default_data_dir(workspace_root: Path | None = None) -> Path:
    """Where a command keeps its data when none is named: one directory per workspace root
    (`<cache>/workspaces/<name>-<digest>`), so agents started in different projects (the
    stdio snippet's `mcp .` in each) do not meet at one owner whose workspace holds only the
    first project; agents in the same project share theirs. The cache itself without a
    root, or where it already holds a data directory of an earlier version (`log.db`)."""
    base = cache_base()
    if workspace_root is None or (base / "log.db").exists():
        return base
    digest = hashlib.sha256(str(workspace_root).encode("utf-8", "surrogateescape")).hexdigest()
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", workspace_root.name).strip("._-")[:40] or "root"
    return base / "workspaces" / f"{name}-{digest[:12]}"


def served_workspace(start: Path) -> Path | None:
    """The directory, `start` or the nearest above it, whose own data directory holds a log:
    the project `serve PATH` or `mcp .` indexed there. `status` run in a served project
    answered for the cache's root data directory instead (`repositories: []`)."""
    if (cache_base() / "log.db").exists():  # an earlier version's one data directory serves all
        return None
    for root in (start, *start.parents):
        if (default_data_dir(root) / "log.db").exists():
            return root
    return None


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="REPOCONTEXT_", extra="ignore")

    data_dir: Path = Field(default_factory=cache_base)
    log_url: str | None = None  # default: sqlite:///<data_dir>/log.db
    workspace_root: Path | None = None
    enable_writes: bool = True
    workspace_mode: bool = True
    host: str = "127.0.0.1"
    auth_file: Path | None = None  # bearer tokens -> principals -> grants (access/auth.py)
    behind_auth_proxy: bool = False  # trust every HTTP caller: an auth proxy fronts us
    port: int = Field(default=8080, ge=0, le=65535)  # 0: any free port
    # ranges: a batch of 0 never advanced (`index` hung), a deadline of 0 failed every call
    debounce_ms: int = Field(default=50, ge=0, le=60_000)
    batch_size: int = Field(default=256, ge=1, le=100_000)
    processor_workers: int | None = None  # processes for pure processors; None = cores - 1
    compaction_tombstone_retention_s: float = 24 * 3600.0
    compaction_interval_s: float = 300.0
    tool_timeout_s: float = Field(default=30.0, gt=0, le=86_400, allow_inf_nan=False)
    max_inflight_requests: int = 256  # HTTP MCP requests at once; more get 503 + Retry-After
    # /metrics and /health/ready's detail need a valid bearer token (the bare ready/not-ready
    # status stays open for probes); effective with a token file (docs/security.md)
    require_token_for_metrics: bool = False
    # -- distributed query replicas (deploy/DISTRIBUTED.md) --
    # /health/ready answers 503 while the views trail the log by more than this many events
    ready_max_lag_events: int = Field(default=1000, ge=0)
    # names this replica's consumer group `views.<replica_id>` (its own position in the broker);
    # default: an id kept in the data directory, so a restart keeps the group
    replica_id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
    # "K/S": this replica holds shard K of S of the repositories (deploy/SCALING.md); None: all
    replica_shard: str | None = None
    # where each shard answers: a template with {shard} (http://query-{shard}:8080/mcp) or one
    # URL per shard, comma-separated; a call for a repository of another shard is forwarded
    # there (None: refused, naming the shard that holds it)
    shard_urls: str | None = None
    # Kafka SASL login of this process (deploy/DISTRIBUTED.md, "Security"): from the KafkaUser's
    # Secret; a CA file turns on TLS (SASL_SSL). Username and password come together or not at all
    kafka_sasl_mechanism: SaslMechanism = "SCRAM-SHA-512"
    kafka_sasl_username: str | None = None
    kafka_sasl_password: SecretStr | None = None
    kafka_ssl_ca_file: Path | None = None
    # git-source credentials, so they stay out of every argv (streams/sources/git_credentials.py)
    git_username: str | None = Field(default=None, repr=False)
    git_password: str | None = Field(default=None, repr=False)  # secret: kept out of repr
    # -- what one caller may hold (docs/operations.md, "What it survives") --
    max_inflight_per_principal: int = 32  # one token's requests at once; more get 429
    request_body_timeout_s: float = 10.0  # a request body must arrive whole within this
    max_request_body_bytes: int = 4 * 1024 * 1024  # larger bodies get 413
    max_sessions_per_principal: int = 64  # open MCP sessions of one token; more get 429
    max_sessions: int = 4096  # open MCP sessions in all; more get 503
    session_idle_timeout_s: float = 600.0  # a session with no request for this long is closed
    heavy_reads_per_repo: int = 2  # searches/bundles of one repository running at once
    # processes besides this one that rank keyword searches (`serve` with --embedder none;
    # query_api/server/search_readers.py); 0: searches are ranked in this process
    search_readers: int = Field(default=0, ge=0, le=32)
    fault_after_failures: int = 3  # a step failing this many times in a row is a fault
    tool_profile: Literal["full", "compact"] = "full"  # compact: ~9 tools, short definitions
    max_query_chars: int = 4096
    # characters of each file keyword search indexes (the tools return the first 64 Ki of
    # them); bounds what one huge file costs the sources, the log and the index
    search_index_max_chars: int = Field(
        default=MAX_INDEXED_CHARS, ge=INDEXED_CHARS_RANGE[0], le=INDEXED_CHARS_RANGE[1]
    )
    # exact BPE for token counts and budgets (spec §3.7); `o200k` / `cl100k` are accepted too
    token_encoding: Literal["o200k_base", "cl100k_base"] = "o200k_base"
    # -- memory and claims --
    region: str = "local"  # the region claims and writes are stamped with
    memory_default_ttl_seconds: float | None = None  # default TTL of new entries; None = durable
    memory_ttl_by_repo: dict[str, float] = Field(default_factory=dict)  # repoId -> default TTL
    memory_write_timeout_s: float = 10.0  # a memory tool waits this long for its command's verdict
    claim_max_lease_seconds: float = 1800.0  # lease clamp (the container's 30 min)
    # -- vector plane --
    embedder: Literal["local", "http", "none"] = "local"  # local = MiniLM on the CPU
    embedder_url: str | None = None  # http: the server's base URL; /v1/embeddings is appended
    embedder_model: str | None = None
    embedder_dimension: int | None = None
    embedder_api_key: str | None = Field(default=None, repr=False)  # secret: kept out of repr
    embed_threads: int = 2  # most encoder threads of the local embedder (fewer when busy)
    semantic_retrieval: Literal["approximate", "exact"] = "approximate"
    hybrid: bool = True  # fuse BM25 into semantic answers (retrieval/fusion.py, a convex mix)
    vector_store: Literal["edge", "qdrant"] = "edge"  # edge = in-process Qdrant
    qdrant_url: str | None = None
    qdrant_api_key: str | None = Field(default=None, repr=False)  # secret: kept out of repr
    ann_min_points: int = 1024  # below this the exact scan answers (spec §3.3)
    ann_indexing_threshold_kb: int | None = 1  # HNSW for any segment; ann_min_points gates
    exact_timeout_s: float = 5.0  # an exact scan slower than this trips the breaker

    @field_validator("qdrant_url", "embedder_url")
    @classmethod
    def _server_url(cls, value: str | None) -> str | None:
        """http(s)://host[:port][/path], said at start: `notaurl` surfaced only later, as a
        connection error naming no setting. The value is never echoed (it may hold a
        password)."""
        if value is None:
            return None
        parsed = urlsplit(value.strip())
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError("must be an http:// or https:// URL with a host (http://host:6333)")
        try:
            parsed.port  # noqa: B018 - parsing the port is the check
        except ValueError:
            raise ValueError("its port must be a number from 0 to 65535") from None
        return value.strip()

    @field_validator("replica_shard")
    @classmethod
    def _shard(cls, value: str | None) -> str | None:
        """Refused at start with the reason (not at the first record)."""
        return None if value is None else ShardAssignment.parse(value).label

    def shard_url(self, shard: int) -> str | None:
        """Where shard `shard` answers (REPOCONTEXT_SHARD_URLS), None when not configured."""
        if self.shard_urls is None:
            return None
        if "{shard}" in self.shard_urls:
            return self.shard_urls.format(shard=shard)
        return self.shard_urls.split(",")[shard].strip()

    def shard(self) -> ShardAssignment:
        return (
            ShardAssignment(0, 1)
            if self.replica_shard is None
            else ShardAssignment.parse(self.replica_shard)
        )

    @field_validator("token_encoding", mode="before")
    @classmethod
    def _encoding_alias(cls, value: object) -> object:
        """The reference spells them o200k / cl100k; both spellings are accepted."""
        if isinstance(value, str) and value.strip().lower() in ("o200k", "cl100k"):
            return value.strip().lower() + "_base"
        return value

    @model_validator(mode="after")
    def _kafka_login_whole(self) -> Settings:
        """A half-configured login would connect unauthenticated and fail later on an ACL;
        refuse it at start, naming what is missing."""
        given = {
            "REPOCONTEXT_KAFKA_SASL_USERNAME": self.kafka_sasl_username,
            "REPOCONTEXT_KAFKA_SASL_PASSWORD": self.kafka_sasl_password,
            "REPOCONTEXT_KAFKA_SSL_CA_FILE": self.kafka_ssl_ca_file,
        }
        if any(v for v in given.values()):
            missing = [name for name, v in list(given.items())[:2] if not v]
            if missing:
                present = [name for name, v in given.items() if v]
                raise ValueError(
                    f"Kafka login half-configured: {', '.join(present)} set but "
                    f"{', '.join(missing)} missing (set both, or neither for an open broker)"
                )
        return self

    @model_validator(mode="after")
    def _http_embedder_whole(self) -> Settings:
        """`--embedder http` names what it lacks at start (it was an "internal error")."""
        if self.embedder != "http":
            return self
        needed = ("embedder_url", "embedder_model", "embedder_dimension")
        missing = ["REPOCONTEXT_" + name.upper() for name in needed if not getattr(self, name)]
        if missing:
            raise ValueError(
                f"the http embedder needs {', '.join(missing)} (an OpenAI-compatible server's "
                "base URL, the model it serves and that model's vector dimension)"
            )
        return self

    @model_validator(mode="after")
    def _shard_urls_whole(self) -> Settings:
        """A URL list must name every shard, so a forwarded call never lands on a guess."""
        urls = self.shard_urls
        if urls is None or "{shard}" in urls:
            return self
        count = self.shard().count
        if len([u for u in urls.split(",") if u.strip()]) != count:
            raise ValueError(
                f"REPOCONTEXT_SHARD_URLS lists {len(urls.split(','))} URL(s) for "
                f"{count} shard(s) (REPOCONTEXT_REPLICA_SHARD={self.replica_shard}): one per "
                "shard, in shard order, or a template with {shard}"
            )
        return self

    def kafka_security(self) -> KafkaSecurity | None:
        """The Kafka login, or None for an unauthenticated broker."""
        if self.kafka_sasl_username is None or self.kafka_sasl_password is None:
            return None
        return KafkaSecurity(
            self.kafka_sasl_mechanism,
            self.kafka_sasl_username,
            self.kafka_sasl_password.get_secret_value(),
            self.kafka_ssl_ca_file,
        )

    def event_log_options(self) -> dict[str, KafkaSecurity]:
        """Extra `open_event_log` options for this log URL: the Kafka login, if any."""
        security = self.kafka_security()
        if security is None or not self.resolved_log_url().startswith("kafka://"):
            return {}
        return {"security": security}

    @staticmethod
    def child_environment() -> dict[str, str]:
        """The environment a child process (git) inherits; read here, the one reader."""
        return dict(os.environ)

    def resolved_log_url(self) -> str:
        return self.log_url or f"sqlite:///{(self.data_dir / 'log.db').resolve()}"

    @property
    def views_path(self) -> Path:
        return self.data_dir / "views.db"

    @property
    def manifest_path(self) -> Path:
        return self.data_dir / "source-manifest.db"
