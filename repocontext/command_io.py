"""What the CLI's commands share: a command's JSON on stdout, an HTTP listener's tokens,
SIGTERM for the one-shot commands, and the line a refused setting is said in."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Coroutine
from signal import SIGTERM
from typing import Any

from pydantic import BaseModel, ValidationError

from query_api.access.auth import AuthConfigError, TokenTable
from query_api.answers.render import pruned
from query_api.settings import Settings

log = logging.getLogger("repocontext")


def out(payload: object) -> None:
    """A command's JSON on stdout, without the nulls (a tool answer's pruning, query_api/
    answers/render.py: an absent field says what a null said)."""
    shown = pruned(payload) if isinstance(payload, BaseModel) else _without_nulls(payload)
    sys.stdout.write(json.dumps(shown, indent=2, default=str) + "\n")
    sys.stdout.flush()


def _without_nulls(value: object) -> object:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def http_tokens(settings: Settings) -> TokenTable | int | None:
    """The bearer-token table of an HTTP listener, or an exit status when it must not start:
    a broken token file, or a non-loopback bind with no tokens and no authenticating proxy
    (fail closed)."""
    from query_api.server.http_app import LOOPBACK

    tokens = None
    if settings.auth_file is not None:
        try:
            tokens = TokenTable.load(settings.auth_file)
        except AuthConfigError as exc:
            log.error("%s", exc)
            return 2
        log.info("bearer-token authentication on: %d tokens", len(tokens))
    if settings.host not in LOOPBACK and tokens is None and not settings.behind_auth_proxy:
        log.error(
            "refusing to serve on %s without authentication; configure tokens "
            "(REPOCONTEXT_AUTH_FILE), bind to 127.0.0.1, or set "
            "REPOCONTEXT_BEHIND_AUTH_PROXY=true when an authenticating proxy fronts it",
            settings.host,
        )
        return 2
    if settings.require_token_for_metrics and tokens is None:
        log.warning(
            "REPOCONTEXT_REQUIRE_TOKEN_FOR_METRICS has no effect without a token file "
            "(REPOCONTEXT_AUTH_FILE): /metrics and /health/ready stay open"
        )
    return tokens


async def terminable(work: Coroutine[Any, Any, int]) -> int:
    """Run a one-shot command so that SIGTERM cancels it: its `finally` blocks stop the pass
    and close the data directory. SIGTERM killed `index` outright (exit -15, and
    multiprocessing's 'leaked semaphore objects' warning on stderr)."""
    task = asyncio.current_task()
    if task is not None:
        asyncio.get_running_loop().add_signal_handler(SIGTERM, task.cancel)
    return await work


def validation_line(exc: ValidationError) -> str:
    """The one line a refused value is said in: a REPOCONTEXT_* setting named as its variable,
    with the value it got, unless that value is a secret. A check over several settings (a
    half-configured Kafka login, a shard URL list) names no field, and its input is every
    setting given, passwords and API keys included: only its message is said (the line
    printed the whole input, `'kafka_sasl_password': '...'`, to stderr and the pod's log)."""
    first = exc.errors()[0]
    loc, message = first["loc"], first["msg"]
    if exc.title != Settings.__name__:  # a value a tool refused
        return f"{'.'.join(str(p) for p in loc)}: {message} (got {first.get('input')!r})"
    if not loc:
        return message.removeprefix("Value error, ")
    where = "REPOCONTEXT_" + "_".join(str(p) for p in loc).upper()
    field = Settings.model_fields.get(str(loc[0]))
    if field is not None and (field.repr is False or "SecretStr" in str(field.annotation)):
        return f"{where}: {message}"
    return f"{where}: {message} (got {first.get('input')!r})"
