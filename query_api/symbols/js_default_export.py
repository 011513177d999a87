"""The name a TS/JS module's default export has, read from its text: the symbol views do not
record which declaration is the default export (processors/symbols/languages/js_ts.py), so a
file's default stood for every top-level declaration in it. On koa, `what calls respond` (a
private function of lib/application.js, whose `module.exports = class Application`) counted
a test reading `require('../').default` as a user of `respond`."""

from __future__ import annotations

import re

_IDENT = r"([A-Za-z_$][\w$]*)"
_NAMED = (
    # export default class Foo / export default async function foo / export default function* foo
    re.compile(
        rf"^[ \t]*export\s+default\s+(?:abstract\s+)?(?:async\s+)?(?:class|function\*?)\s+{_IDENT}",
        re.MULTILINE,
    ),
    # module.exports = class Foo ... / module.exports = function foo (
    re.compile(
        rf"^[ \t]*module\.exports\s*=\s*(?:class|(?:async\s+)?function\*?)\s+{_IDENT}", re.MULTILINE
    ),
    # export default foo;  /  module.exports = foo
    re.compile(
        rf"^[ \t]*(?:export\s+default|module\.exports\s*=)\s*{_IDENT}\s*;?[ \t]*$", re.MULTILINE
    ),
    # export { foo as default }
    re.compile(rf"^[ \t]*export\s*\{{[^}}]*?\b{_IDENT}\s+as\s+default\b", re.MULTILINE),
)
MAX_CHARS = 1 << 20  # a module's text read for its default export


def default_export_name(text: str) -> str | None:
    """The name the module's default export is declared or bound under, when its text says
    (`export default class Foo`, `module.exports = Foo`); None when it is anonymous or the
    text names none."""
    head = text[:MAX_CHARS]
    for pattern in _NAMED:
        found = pattern.search(head)
        if found is not None:
            return found.group(1)
    return None
