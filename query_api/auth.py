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
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass, field
from pathlib import Path

from query_api.errors import QueryApiError

LEVELS = {"read": 1, "write": 2, "admin": 3}


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


class TokenTable:
    def __init__(self, entries: list[tuple[bytes, Principal]]) -> None:
        self._entries = entries

    def __len__(self) -> int:
        return len(self._entries)

    @classmethod
    def load(cls, path: Path) -> TokenTable:
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise AuthConfigError(f"cannot read the token file {path}: {exc}") from exc
        entries: list[tuple[bytes, Principal]] = []
        for n, item in enumerate(raw.get("tokens", []) if isinstance(raw, dict) else []):
            try:
                if "sha256" in item:
                    digest = bytes.fromhex(str(item["sha256"]))
                else:
                    digest = _digest(str(item["token"]))
                if len(digest) != 32:
                    raise ValueError("sha256 must be 64 hex digits")
                grants: dict[str, int] = {}
                for repo, names in dict(item.get("grants", {})).items():
                    unknown = set(names) - set(LEVELS)
                    if unknown:
                        raise ValueError(f"unknown grants {sorted(unknown)}")
                    grants[str(repo)] = max((LEVELS[g] for g in names), default=0)
                entries.append((digest, Principal(str(item["principal"]), grants)))
            except (KeyError, TypeError, ValueError) as exc:
                raise AuthConfigError(f"token entry {n} in {path} is malformed: {exc}") from exc
        if not entries:
            raise AuthConfigError(f"the token file {path} defines no tokens")
        return cls(entries)

    def authenticate(self, authorization: str | None) -> Principal | None:
        """The principal of an `Authorization: Bearer <token>` header, else None."""
        if not authorization or not authorization.lower().startswith("bearer "):
            return None
        digest = _digest(authorization[7:].strip())
        found: Principal | None = None
        for candidate, principal in self._entries:  # no early exit: constant time per table
            if hmac.compare_digest(candidate, digest):
                found = principal
        return found
