"""The one settings object of the query service / embedded deployable.

Built once by the CLI (from REPOCONTEXT_* environment variables, then command-line flags)
and passed down; nothing else reads the environment.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def default_data_dir() -> Path:
    """`$XDG_CACHE_HOME/repocontext` (or ~/.cache/repocontext); `./.repocontext` if no home."""
    cache = os.environ.get("XDG_CACHE_HOME")
    if cache:
        return Path(cache) / "repocontext"
    home = Path.home()
    if str(home) in ("", "/") or not home.exists():
        return Path.cwd() / ".repocontext"
    return home / ".cache" / "repocontext"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="REPOCONTEXT_", extra="ignore")

    data_dir: Path = Field(default_factory=default_data_dir)
    log_url: str | None = None  # default: sqlite:///<data_dir>/log.db
    workspace_root: Path | None = None
    enable_writes: bool = True
    workspace_mode: bool = True
    host: str = "127.0.0.1"
    auth_file: Path | None = None  # bearer tokens -> principals -> grants (query_api/auth.py)
    behind_auth_proxy: bool = False  # trust every HTTP caller: an auth proxy fronts us
    port: int = 8080
    debounce_ms: int = 50
    batch_size: int = 256
    processor_workers: int | None = None  # processes for pure processors; None = cores - 1
    compaction_tombstone_retention_s: float = 24 * 3600.0
    compaction_interval_s: float = 300.0
    tool_timeout_s: float = 30.0
    max_inflight_requests: int = 256  # HTTP MCP requests at once; more get 503 + Retry-After
    tool_profile: Literal["full", "compact"] = "full"  # compact: ~9 tools, short definitions
    max_query_chars: int = 4096

    def resolved_log_url(self) -> str:
        return self.log_url or f"sqlite:///{(self.data_dir / 'log.db').resolve()}"

    @property
    def views_path(self) -> Path:
        return self.data_dir / "views.db"

    @property
    def manifest_path(self) -> Path:
        return self.data_dir / "source-manifest.db"
