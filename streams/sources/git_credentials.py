"""Credentials reach git through its environment, never its argv (docs/security.md).

Anything on a command line is world-readable in /proc/<pid>/cmdline, so a `user:token@` URL
given to `git fetch` publishes the token to every local user. Instead git fetches the URL
without userinfo, and a credential helper given on the command line as a shell snippet (no
secret in it) prints the username and password it reads from two environment variables of
the git process (/proc/<pid>/environ is readable by its owner only). `credential.helper=`
first clears any helper the system configured, so the credential is never stored elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit, urlunsplit

USER_VAR = "REPOCONTEXT_GIT_USERNAME"
PASSWORD_VAR = "REPOCONTEXT_GIT_PASSWORD"
# The credential protocol: answer `get` with username/password lines; ignore store/erase.
_HELPER = (
    '!f() { test "$1" = get || return 0; '
    f'printf \'username=%s\\npassword=%s\\n\' "${USER_VAR}" "${PASSWORD_VAR}"; }}; f'
)
_HTTP = ("http", "https")


@dataclass(frozen=True)
class GitCredentials:
    username: str
    password: str = field(default="", repr=False)

    def config_args(self) -> list[str]:
        """`-c` options for git: drop configured helpers, add the environment-reading one."""
        return ["-c", "credential.helper=", "-c", f"credential.helper={_HELPER}"]

    def environment(self) -> dict[str, str]:
        return {USER_VAR: self.username, PASSWORD_VAR: self.password}


def without_userinfo(url: str) -> str:
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = host + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def split_credentials(url: str) -> tuple[str, GitCredentials | None]:
    """(the URL git may see, the credentials it carried). Over HTTP(S) the whole userinfo is
    secret (a token is often the username); other transports keep their user (ssh's
    `git@`), and a password there, which they would ignore anyway, is dropped."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url, None
    if parts.scheme.lower() in _HTTP:
        credentials = GitCredentials(unquote(parts.username or ""), unquote(parts.password or ""))
        return without_userinfo(url), credentials
    if parts.password is None:
        return url, None
    host = parts.hostname or ""
    netloc = f"{parts.username}@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment)), None
