"""A Python declaration's outline line with its name said once.

Python signatures are stored as written, `def __init__(self, message: str) -> None` or
`@overload def Option(default: Any | None = ..., ...)`, and an outline line put them after
the qualified name: `24-29 Method exc.ClickException.__init__: def __init__(self, ...)`
said the name twice, and an overload's stored name (its parameter types) made three. The
kind already says what `def` and `class` do, so the qualified name carries the signature
past them, with the decorators and `async` before it (`Method @property Context.meta(self)`).
"""

from __future__ import annotations

from processors.symbols.languages.python import PYTHON_SUFFIXES

_KEYWORDS = ("async def ", "def ", "class ")


def is_python(path: str) -> bool:
    return path.endswith(PYTHON_SUFFIXES)


def named_signature(qualified: str, simple: str, sig: str) -> str | None:
    """`{decorators} {async }{qualified}.{simple}{parameters and return}` for a signature
    declaring `simple`, else None (a name other than the declaration's, `def default_map`
    of `defaults`, or no `def`/`class` in it)."""
    for keyword in _KEYWORDS:
        head = keyword + simple
        at = sig.find(head)
        if at < 0 or (at and sig[at - 1] != " "):
            continue
        rest = sig[at + len(head) :]
        if rest and (rest[0].isalnum() or rest[0] == "_"):  # `def setup_app` of `setup`
            return None
        before = sig[:at] + ("async " if keyword == "async def " else "")
        dotted = f"{qualified}." if qualified else ""
        return f"{before}{dotted}{simple}{rest}"
    return None
