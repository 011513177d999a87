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
_DOC = "Doc("
_ANNOTATED = "Annotated["
_CUT = "\u2026"  # how the extractor ends a signature it cuts


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
        before = _uncommented(sig[:at]) + ("async " if keyword == "async def " else "")
        dotted = f"{qualified}." if qualified else ""
        return f"{before}{dotted}{simple}{rest}"
    return None


def _uncommented(decorators: str) -> str:
    """The decorators before a `def` less the comments written after them: the stored
    signature joins a decorator's line to the next, so `@t.overload  # type: ignore[override]`
    ran into the outline line (QA on pallets/werkzeug). A comment runs to the next decorator;
    a `#` inside a string or brackets (`@app.route("/#top")`) is no comment."""
    out: list[str] = []
    depth = 0
    i = 0
    while i < len(decorators):
        char = decorators[i]
        if char in "\"'":
            end = _string_end(decorators, i)
            end = len(decorators) if end is None else end
            out.append(decorators[i:end])
            i = end
            continue
        if char == "#" and depth == 0:
            after = decorators.find(" @", i)
            i = len(decorators) if after < 0 else after + 1
            out.append(" ")
            continue
        depth += 1 if char in "([{" else -1 if char in ")]}" else 0
        out.append(char)
        i += 1
    kept = " ".join("".join(out).split())
    return kept + " " if kept else ""


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


def without_docs(sig: str) -> str:
    """`sig` without PEP 727 `Doc(...)` metadata, an `Annotated[T, Doc(...)]` left with its
    type alone written as that type: typer and FastAPI document each parameter so, and
    typer's outline lines were docstrings (`name: Annotated[ str | None, Doc( <three
    quotes> The name of this command. ...`). A signature the extractor cut inside a Doc
    ends there."""
    out: list[str] = []
    at = 0
    while (start := _doc_call(sig, at)) >= 0:
        head = sig[at:start].rstrip()
        out.append(head[:-1].rstrip() if head.endswith(",") else head)
        end = _closing(sig, start + len(_DOC))
        if end is None:  # cut inside it: the Annotated it is in is its type
            kept = _unwrapped("".join(out))
            opened = kept.rfind(_ANNOTATED)
            if opened >= 0 and _closing(kept, opened + len(_ANNOTATED)) is None:
                kept = kept[:opened] + kept[opened + len(_ANNOTATED) :].strip()
            return f"{kept} {_CUT}"
        at = end
    return _unwrapped("".join(out) + sig[at:])


def _doc_call(sig: str, at: int) -> int:
    """Where the next `Doc(` call starts (not `MyDoc(`), else -1."""
    while (found := sig.find(_DOC, at)) >= 0:
        if found == 0 or not (sig[found - 1].isalnum() or sig[found - 1] in "_."):
            return found
        at = found + 1
    return -1


def _closing(sig: str, at: int) -> int | None:
    """The index past the bracket closing the one open before `at` (string literals
    skipped), else None: the text ends first."""
    depth = 1
    i = at
    while i < len(sig):
        char = sig[i]
        if char in "\"'":
            end = _string_end(sig, i)
            if end is None:
                return None
            i = end
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def _unwrapped(sig: str) -> str:
    """Each `Annotated[T]` (or `Annotated[ T, ]`) of `sig` written as `T`."""
    out: list[str] = []
    at = 0
    while (start := sig.find(_ANNOTATED, at)) >= 0:
        end = _closing(sig, start + len(_ANNOTATED))
        if end is None:
            break
        inner = sig[start + len(_ANNOTATED) : end - 1].strip().removesuffix(",").strip()
        single = "," not in _top_level(inner)
        out.append(sig[at:start] + (inner if single else sig[start:end]))
        at = end
    return "".join(out) + sig[at:]


def _top_level(text: str) -> str:
    """`text` with what its brackets and quotes hold left out (`a[b, c], d` -> `a, d`)."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] in "([{\"'":
            end = _closing(text, i + 1) if text[i] in "([{" else _string_end(text, i)
            if end is None:
                return "".join(out)
            i = end
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def _string_end(text: str, at: int) -> int | None:
    """The index past the string literal starting at `at`, else None (it is cut)."""
    quote = text[at : at + 3] if text[at : at + 3] in ('"""', "'''") else text[at]
    close = text.find(quote, at + len(quote))
    return None if close < 0 else close + len(quote)
