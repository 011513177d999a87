"""Credential patterns: memory's write guard refuses them, redaction masks them on the way out.

One definition for both (processors/memory_guards.py, streams/redact.py), so a password the
redaction masks is one the guard refuses. URL userinfo follows how connection strings are
written rather than RFC 3986: a password may hold `/`, `:` and `@` (`postgres://admin:
wJalr/K7@db`, `https://deploy:p@ss@git...`) and runs to the last `@` before whitespace or a
quote; the user may be empty (`redis://:pass@cache`) and the scheme absent (`//u:p@host`). A
port is no password (`http://localhost:3000/@vite/client` keeps its `@`). Every run is
bounded (a user of 128 characters, a password of 256): a minified line of megabytes with many
`//` and `:` would otherwise be scanned to its end from each `//`.
"""

from __future__ import annotations

import re

_SCHEME = r"(?P<scheme>(?:[A-Za-z][A-Za-z0-9+.-]*:)?//)"
_USER = r"[^/\s:@\"'<>]{0,128}"
# after the colon: not a port (digits, then the path or the end of the URL)
_PASSWORD = r":(?!\d*(?:[/\s\"'<>]|$))[^\s\"'<>]{0,256}"

# user:password@ or a bare user@ (a token written as the user name)
USERINFO = re.compile(_SCHEME + r"(?:" + _USER + _PASSWORD + r"|[^/\s:@\"'<>]{1,128})@")
# user:password@ with a password, what memory refuses to store
PASSWORD_URL = re.compile(_SCHEME + _USER + r":(?!\d*(?:[/\s\"'<>]|$))[^\s\"'<>]{1,256}@")
# ?token=..., &client_secret=...: the value up to the next parameter, space or quote
QUERY_SECRET = re.compile(
    r"(?i)([?&](?:access_token|token|password|private_token|api_key|apikey|client_secret"
    r"|secret)=)[^&\s\"'<>#]+"
)
