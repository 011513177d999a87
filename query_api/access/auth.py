"""Access control on the HTTP endpoint: bearer tokens -> principals -> per-repository grants.

The token file (JSON, path in REPOCONTEXT_AUTH_FILE; in Kubernetes a mounted Secret) maps
tokens to principals and grants. Tokens may be written as their SHA-256 (`"sha256": hex`) so
the file holds no secret; either way they are compared as digests in constant time and
never logged:

    {"tokens": [{"principal": "ci-agent", "sha256": "<hex>",
                 "grants": {"*": ["read"], "billing": ["read", "write"]}}]}

Grants are `read`, `write` and `admin` (each implies the ones before it) per repository id,
or `*` for every repository. stdio callers (a local agent that launched us) are trusted as
the local user and hold every grant.

The file is validated whole before the server starts (`TokenFile`): a wrong shape, an empty
or whitespace token, a token that could never arrive in a header, or the same token twice is
a one-line error naming the entry. Plaintext tokens in a file others may read are logged as a
warning (docs/security.md).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from query_api.errors import QueryApiError

log = logging.getLogger(__name__)
LEVELS = {"read": 1, "write": 2, "admin": 3}
# What a token may be made of: visible ASCII, no whitespace (RFC 6750's b64token and more), so
# no Unicode space or control character can match after a header is trimmed.
TOKEN_CHARS = re.compile(r"[\x21-\x7e]+")


class AuthConfigError(QueryApiError):
    """The token file is missing, unreadable or malformed."""


@dataclass(frozen=True)
class Principal:
    name: str
    grants: dict[str, int] = field(default_factory=dict)  # repoId or "*" -> level

    def level_for(self, repo_id: str) -> int:
        return max(self.grants.get(repo_id, 0), self.grants.get("*", 0))

    def may(self, repo_id: str, grant: str) -> bool:
        return self.level_for(repo_id) >= LEVELS[grant]

    def may_somewhere(self, grant: str) -> bool:
        return any(level >= LEVELS[grant] for level in self.grants.values())


LOCAL_USER = Principal("local", {"*": LEVELS["admin"]})


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8")).digest()


class TokenEntry(BaseModel):
    """One token of the file: exactly one of `token` (plaintext) or `sha256` (its digest)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    principal: str = Field(min_length=1, max_length=256, pattern=r"\S")
    token: str | None = Field(default=None, max_length=4096)
    sha256: str | None = Field(default=None, pattern=r"^[0-9a-fA-F]{64}$")
    grants: dict[str, list[Literal["read", "write", "admin"]]] = Field(default_factory=dict)

    @field_validator("token")
    @classmethod
    def _token(cls, value: str | None) -> str | None:
        if value is not None and not TOKEN_CHARS.fullmatch(value):
            raise ValueError(
                "must be non-empty visible ASCII without spaces (a header could never carry it)"
            )
        return value

    @model_validator(mode="after")
    def _one_secret(self) -> TokenEntry:
        if (self.token is None) == (self.sha256 is None):
            raise ValueError("give exactly one of `token` or `sha256`")
        return self

    def digest(self) -> bytes:
        return bytes.fromhex(self.sha256) if self.sha256 is not None else _digest(str(self.token))

    def to_principal(self) -> Principal:
        levels = {
            repo: max((LEVELS[g] for g in names), default=0) for repo, names in self.grants.items()
        }
        return Principal(self.principal, levels)


class TokenFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    tokens: list[TokenEntry]


def _one_line(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err.get("loc", ())) or "the file"
        parts.append(f"`{where}`: {err.get('msg', 'invalid')}")
    more = len(exc.errors()) - len(parts)
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def _warn_if_exposed(path: Path, parsed: TokenFile) -> None:
    """Plaintext tokens in a file group or others can read are as good as published."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return
    if mode & 0o077 and any(entry.token is not None for entry in parsed.tokens):
        log.warning(
            "the token file %s is readable by group or others (mode %o) and holds plaintext "
            "tokens; chmod 600 it, or store each token as its sha256 digest",
            path,
            mode & 0o777,
        )


class TokenTable:
    def __init__(self, entries: list[tuple[bytes, Principal]]) -> None:
        self._entries = entries

    def __len__(self) -> int:
        return len(self._entries)

    @classmethod
    def load(cls, path: Path) -> TokenTable:
        """The validated table of `path`; AuthConfigError (one line, no secret) otherwise."""
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise AuthConfigError(f"cannot read the token file {path}: {exc}") from exc
        try:
            parsed = TokenFile.model_validate(raw)
        except ValidationError as exc:
            raise AuthConfigError(f"the token file {path} is malformed: {_one_line(exc)}") from None
        if not parsed.tokens:
            raise AuthConfigError(f"the token file {path} defines no tokens")
        entries: list[tuple[bytes, Principal]] = []
        first_of: dict[bytes, int] = {}
        for n, entry in enumerate(parsed.tokens):
            digest = entry.digest()
            if digest in first_of:  # which principal would it be? refuse rather than guess
                raise AuthConfigError(
                    f"the token file {path} is malformed: `tokens.{n}` repeats the token of "
                    f"`tokens.{first_of[digest]}`; every token must be unique"
                )
            first_of[digest] = n
            entries.append((digest, entry.to_principal()))
        _warn_if_exposed(path, parsed)
        return cls(entries)

    def authenticate(self, authorization: str | None) -> Principal | None:
        """The principal of an `Authorization: Bearer <token>` header, else None."""
        if not authorization or not authorization.lower().startswith("bearer "):
            return None
        token = authorization[7:].strip(" \t")  # HTTP's own whitespace only, never Unicode's
        if not TOKEN_CHARS.fullmatch(token):
            return None
        digest = _digest(token)
        found: Principal | None = None
        for candidate, principal in self._entries:  # no early exit: constant time per table
            if hmac.compare_digest(candidate, digest):
                found = principal
        return found
