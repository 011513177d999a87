"""A Python declaration's name said once in a text block: its outline line, and the
`symbol:` reasons of a search hit on its file.

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
_SYMBOL = "symbol:"


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


def shown_reasons(reasons: list[str], path: str) -> list[str]:
    """A search hit's reasons as its text says them: on a Python file, a `symbol:` reason
    without the parameters and `#n` of its stored name, each name once. Python stores an
    overload (`@overload`, a function defined in both branches of an `if`) with its
    parameter types, typer's `Argument(Annotated[Any|None,Doc(...` with docstring
    fragments: a hit on typer/params.py spent about 130 tokens saying `Argument`
    three times. The JSON keeps the stored names, which recall takes."""
    if not is_python(path):
        return reasons
    return list(dict.fromkeys(_short(reason) for reason in reasons))


def _short(reason: str) -> str:
    if not reason.startswith(_SYMBOL):
        return reason
    return _SYMBOL + reason[len(_SYMBOL) :].split("(", 1)[0].split("#", 1)[0]
