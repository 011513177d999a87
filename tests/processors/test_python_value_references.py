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
    assert ("", "pass_context", "click.pass_context") in found


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
