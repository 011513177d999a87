"""A name Python code reads through an imported module as a value, not a call, is a reference.

click's tests use `except click.Abort:`, `type=click.INT`, `param: click.Parameter | None` and
pass `click.parser._OptionParser` as an argument; none of these was a reference (only calls,
bases and bare annotations were), so `related` missed 15 of jedi's 230 dependents on click
(`python -m tests.bench.symbols_quality xrefs --language python`). A name read from anything
but an import (`self.x`, a local's `obj.x`, `f().x`) stays out: the resolver would match it
by its simple name alone.
"""

from __future__ import annotations

from processors.symbols.processor import symbols_of
from tests.processors.test_symbols import upsert

VALUES_PY = """import click
import click.parser
from .core import Command


class Cli:
    def run(self, x: click.Context | None, obj):
        if isinstance(x, click.Option):
            return self.abort, obj.Option, make().Choice
        try:
            handle(type=click.INT, target=click.parser._OptionParser)
        except (click.Abort, click.exceptions.Exit):
            raise click.UsageError
        return Command.context_class


@click.pass_context
def hello():
    pass
"""


def _references(path: str, body: str) -> set[tuple[str, str, str | None]]:
    records = symbols_of(upsert(path, body))
    assert records is not None
    return set(records[1].references)


def test_values_read_through_an_imported_module_are_references() -> None:
    found = _references("src/pkg/cli.py", VALUES_PY)
    run = "src.pkg.cli.Cli.run"
    for name, qualified in (
        ("Context", "click.Context"),
        ("Option", "click.Option"),
        ("INT", "click.INT"),
        ("_OptionParser", "click.parser._OptionParser"),
        ("Abort", "click.Abort"),
        ("Exit", "click.exceptions.Exit"),
        ("UsageError", "click.UsageError"),
        ("context_class", "src.pkg.core.Command.context_class"),
    ):
        assert (run, name, qualified) in found, name
    # a decorator is the reference of the function it decorates (test_symbol_owners.py)
    assert ("src.pkg.cli.hello", "pass_context", "click.pass_context") in found


def test_members_of_values_are_not_references() -> None:
    found = _references("src/pkg/cli.py", VALUES_PY)
    names = {name for _owner, name, _qualified in found}
    assert "abort" not in names  # self.abort
    assert "Choice" not in names  # make().Choice
    # obj.Option is not click's Option read bare: the only Option is the qualified one
    assert {q for _o, n, q in found if n == "Option"} == {"click.Option"}


def test_a_call_is_not_counted_twice() -> None:
    body = "import click\n\n\ndef f():\n    click.echo('x')\n    return click.echo\n"
    records = symbols_of(upsert("m.py", body))
    assert records is not None
    echoes = [r for r in records[1].references if r[1] == "echo"]
    assert echoes == [("m.f", "echo", "click.echo")]


def test_a_member_of_a_call_is_not_the_import_of_its_name() -> None:
    """`requests.post(url).json()` calls a method of what post returns, not the module json
    that `import json` binds: as a bare `json` it was qualified `json`, which the dependents
    resolver matched with every declaration named `json` (requests' `Response.json`)."""
    body = (
        "import json\nfrom os.path import join\nimport requests\n\n\n"
        "def f(url, parts):\n"
        "    data = requests.post(url).json()\n"
        "    return ', '.join(parts), parts[0].join(data)\n"
    )
    found = _references("tests/test_m.py", body)
    assert ("tests.test_m.f", "post", "requests.post") in found
    assert ("tests.test_m.f", "json", None) in found, found
    # only the imports themselves, at file level, use json and join (references.py)
    assert not any(q in ("json", "os.path.join") for o, _n, q in found if o), found


BARE_VALUES_PY = """from starlette.requests import Request
from starlette.routing import Router
from .websockets import WebSocket, WebSocketDisconnect
from .exceptions import HTTPException
from .middleware import Middleware, BaseHTTPMiddleware
from .cookies import Jar, Headers

Endpoint = Callable[[Request], Awaitable[Response]]
HANDLERS = {HTTPException: handle}
Cookies = Jar | Mapping[str, str]
Files = tuple[str, Headers[str] | None]


def wrap(
    app, conn: Request | WebSocket, router: Router | Starlette | None, f: Callable[[Request], None]
):
    if isinstance(conn, Request):
        pass
    try:
        return Middleware(BaseHTTPMiddleware, dispatch=app)
    except WebSocketDisconnect as exc:
        raise HTTPException from exc


def local(request, conn):
    return isinstance(request, conn)
"""


def test_names_an_import_binds_read_bare_are_references() -> None:
    """starlette's `isinstance(x, Request)`, `Middleware(BaseHTTPMiddleware)`, `except
    WebSocketDisconnect:` and `conn: Request | WebSocket` named what the file imports, yet
    only calls, bases and single-name annotations were references: related listed such a
    file as `<file>` (its import) or not under the symbols that use the name (starlette's
    WebSocketDisconnect: 4 of 12 users). A local's or a parameter's name stays out."""
    found = _references("src/pkg/app.py", BARE_VALUES_PY)
    wrap = "src.pkg.app.wrap"
    for name, qualified in (
        ("Request", "starlette.requests.Request"),
        ("WebSocket", "src.pkg.websockets.WebSocket"),
        ("Router", "starlette.routing.Router"),
        ("BaseHTTPMiddleware", "src.pkg.middleware.BaseHTTPMiddleware"),
        ("WebSocketDisconnect", "src.pkg.websockets.WebSocketDisconnect"),
        ("HTTPException", "src.pkg.exceptions.HTTPException"),
    ):
        assert (wrap, name, qualified) in found, name
    assert ("src.pkg.app.Endpoint", "Request", "starlette.requests.Request") in found, found
    assert ("src.pkg.app.HANDLERS", "HTTPException", "src.pkg.exceptions.HTTPException") in found
    assert ("src.pkg.app.Cookies", "Jar", "src.pkg.cookies.Jar") in found
    assert ("src.pkg.app.Files", "Headers", "src.pkg.cookies.Headers") in found
    assert not any(o == "src.pkg.app.local" and q for o, _n, q in found), found
    assert not any(n in ("conn", "app", "exc", "request") for _o, n, _q in found), found


CONDITIONS_PY = """from ._compat import PY_3_10_PLUS, PY_3_11_PLUS, PY_3_13_PLUS
from . import _config

indent = "" if PY_3_13_PLUS else " " * 8


def guarded():
    if PY_3_10_PLUS:
        pass
    elif _config.legacy:
        pass


def combined(cls, last):
    if PY_3_13_PLUS and not has(cls):
        pass
    if not PY_3_11_PLUS or last:
        pass


def looped(flag):
    while _config.running:
        pass
    assert _config.enabled
    for item in _config.items:
        pass
    return lambda: _config.value if flag else PY_3_10_PLUS
"""


def test_imported_names_read_in_conditions_are_references() -> None:
    """An imported constant tested in a condition (`if PY_3_10_PLUS:`, `X and not Y`, a
    ternary, `while`, `assert`, a loop's iterable, a lambda's body) is a reference of the
    function that tests it: attrs' _make.py gates its code on `_compat.PY_3_*_PLUS`, and
    related(_compat.py) named only the file that imports them, not one function."""
    found = _references("src/attr/_make.py", CONDITIONS_PY)
    compat, config = "src.attr._compat.", "src.attr._config."
    for owner, name, qualified in (
        ("guarded", "PY_3_10_PLUS", compat + "PY_3_10_PLUS"),
        ("guarded", "legacy", config + "legacy"),
        ("combined", "PY_3_13_PLUS", compat + "PY_3_13_PLUS"),
        ("combined", "PY_3_11_PLUS", compat + "PY_3_11_PLUS"),
        ("looped", "running", config + "running"),
        ("looped", "enabled", config + "enabled"),
        ("looped", "items", config + "items"),
        ("looped", "value", config + "value"),
        ("looped", "PY_3_10_PLUS", compat + "PY_3_10_PLUS"),
        ("indent", "PY_3_13_PLUS", compat + "PY_3_13_PLUS"),
    ):
        assert ("src.attr._make." + owner, name, qualified) in found, (owner, name)
    assert not any(n in ("has", "last", "flag", "item") and q for _o, n, q in found)


STRING_ANNOTATIONS_PY = """from __future__ import annotations
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from .models import Response
    from .sessions import Session


class Adapter:
    def send(self, request: "Request", session: Optional["Session"]) -> "Response":
        return self.build(request)

    def label(self) -> "not a name at all":
        return "Response"
"""


def test_a_type_written_as_a_string_is_a_reference() -> None:
    """A class imported under `TYPE_CHECKING` is named only in quoted annotations: its
    module's dependents missed the file (psf/requests' adapters name models and sessions
    so)."""
    found = _references("src/requests/adapters.py", STRING_ANNOTATIONS_PY)
    send = "src.requests.adapters.Adapter.send"
    assert (send, "Response", "src.requests.models.Response") in found, found
    assert (send, "Session", "src.requests.sessions.Session") in found, found
    assert (send, "Request", None) in found
    names = {name for _owner, name, _q in found}
    assert "not a name at all" not in names  # a string that is no identifier names nothing
    label = "src.requests.adapters.Adapter.label"
    assert not any(owner == label for owner, _n, _q in found)  # a string value is no type


def test_a_value_a_method_is_called_on_is_a_reference_when_a_from_import_binds_it() -> None:
    # poetry's `wheel_file_re.match(...)` after `from poetry.utils.patterns import
    # wheel_file_re` linked the function to the regex only through the file's import
    body = (
        "import click\nimport numpy as np\n"
        "from poetry.utils.patterns import wheel_file_re\nfrom .requests import Request\n\n"
        "def parse(name, obj):\n"
        "    click.echo(np.array(name))\n"
        "    obj.match(name)\n"
        "    Request.from_scope(name)\n"
        "    return wheel_file_re.match(name)\n"
    )
    found = _references("src/poetry/parse.py", body)
    parse = "src.poetry.parse.parse"
    assert (parse, "wheel_file_re", "poetry.utils.patterns.wheel_file_re") in found
    assert (parse, "Request", "src.poetry.requests.Request") in found
    # a module a function is called through is no value: `click`, `numpy` name no declaration
    assert not {name for _, name, _ in found} & {"click", "numpy", "np", "obj"}
