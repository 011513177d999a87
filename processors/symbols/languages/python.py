"""Python: a file's module path is its declarations' prefix (`pkg/mod.py` -> `pkg.mod`),
relative imports name repository modules, and an import binds a module as often as a
declaration, so a call through one is not taken for a reference to it. The pure rules of
matching an imported name to a declaration (which prefix an absolute import skips, a
package's re-export, the files a module may be) are here too; query_api.symbols.python_modules
applies them with what the views say is a package."""

from __future__ import annotations

from tree_sitter import Node

from processors.symbols.languages.base import LanguageRules
from processors.symbols.languages.python_locals import local_shadows
from processors.symbols.languages.python_scopes import class_body_spans, declares_global

PYTHON_SUFFIXES = (".py", ".pyi")


def module_prefix(path: str) -> str:
    """Python's dotted module path from the file path (`pkg/mod.py` -> `pkg.mod`)."""
    parts = path.rsplit(".", 1)[0].split("/")
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(p for p in parts if p)


# folders that hold a project's import root (a src layout); what lies below one is imported
SOURCE_ROOTS = frozenset({"src", "lib"})


def _source_root_end(outside: list[str]) -> int:
    """How many of `outside` (a path's leading folders that hold no `__init__.py`) an import
    leaves out: up to the last source folder (`src`) among them, as the folders below it
    are namespace packages (PEP 420: poetry's src/poetry, which poetry-core shares, so
    code imports `poetry.installation`); all of them where none is a source folder
    (`tests/test_app.py` outside any package is the module `test_app`)."""
    roots = [i for i, name in enumerate(outside) if name in SOURCE_ROOTS]
    return roots[-1] + 1 if roots else len(outside)


def import_name(fq: str, path: str, packages: set[str]) -> str:
    """A declaration's name as code imports it: `fq` (declared in `path`, keyed by the file's
    path) without the path's leading folders that are no package (`src` of
    src/flask/testing.py gives `flask.testing.FlaskClient`), a namespace package below a
    source folder kept (_source_root_end); `packages` holds the folders above `path` that
    have an `__init__.py`. Other languages' names are returned as they are."""
    if not path.endswith(PYTHON_SUFFIXES):
        return fq
    dirs = path.split("/")[:-1]
    keep = len(dirs)
    while keep > 0 and "/".join(dirs[:keep]) in packages:
        keep -= 1
    prefix = ".".join(dirs[: _source_root_end(dirs[:keep])])
    if prefix and fq.startswith(prefix + "."):
        return fq[len(prefix) + 1 :]
    return fq


def resolve_relative(module: str, path: str) -> str:
    """A relative import as the repository module it names: in `pkg/sub/mod.py`, `.` is
    `pkg.sub`, `..x` is `pkg.x` (in `pkg/sub/__init__.py`, `.` is `pkg.sub` too). Beyond the
    repository root it stays relative (it names nothing we index)."""
    if not module.startswith("."):
        return module
    dots = len(module) - len(module.lstrip("."))
    parts = path.rsplit(".", 1)[0].split("/")[:-1]  # the file's package
    if dots - 1 > len(parts):
        return module
    base = parts[: len(parts) - (dots - 1)]
    rest = module[dots:]
    return ".".join([p for p in base if p] + ([rest] if rest else [])) or module


def prefix_before(dotted: str, part: str) -> str | None:
    """The dotted prefix of `dotted` before `part` where `part` runs on dot boundaries inside
    it: `src` for `flask.json` in `src.flask.json.dumps`, "" at the start, None when absent."""
    at = f".{dotted}.".find(f".{part}.")
    return None if at < 0 else dotted[: at - 1] if at else ""


def skipped_prefix(qualified: str, fq_name: str) -> str:
    """The leading part of a Python declaration's fq name (the file's path) that an absolute
    import naming it as `qualified` leaves out: `src` for `flask.app.Flask` against
    `src.flask.app.Flask`, or against the package re-export `flask.Flask`; "" when none."""
    fq = fq_name.split("(", 1)[0]
    if qualified == fq or qualified.endswith("." + fq):
        return ""
    if fq.endswith("." + qualified):
        return fq[: -len(qualified) - 1]
    return prefix_before(fq, qualified.rpartition(".")[0]) or ""


def names_declaration(qualified: str, fq_name: str, module: str) -> bool:
    """Whether `qualified` names the declaration `fq_name` of the module `module` (its file's
    dotted path), directly (`pkg.mod.Name` vs `src.pkg.mod.Name`) or through a package's
    re-export of a module-level declaration (`shop.OrderService` for
    `src.shop.orders.OrderService`), leaving aside which prefixes may be skipped."""
    fq = fq_name.split("(", 1)[0]
    if qualified == fq or fq.endswith("." + qualified) or qualified.endswith("." + fq):
        return True
    package, _, name = qualified.rpartition(".")
    declared_in, _, simple = fq.rpartition(".")
    return bool(package) and simple == name and declared_in == module and f".{package}." in f".{fq}"


def module_files(module: str) -> tuple[str, str]:
    """The files a dotted module of the repository may be: `pkg/mod.py` or the package
    `pkg/mod/__init__.py` (module_prefix the other way)."""
    path = module.replace(".", "/")
    return f"{path}.py", f"{path}/__init__.py"


# what a module-level assignment may stand in and still bind a module's name: `if
# TYPE_CHECKING:`, `if WIN:`/`else:`, `try: import brotli` / `except ImportError: brotli =
# None`, `with opened_file() as f:`; not a loop's body, a function's or a class's
_MODULE_BLOCKS = frozenset(
    {
        "expression_statement",
        "block",
        "if_statement",
        "elif_clause",
        "else_clause",
        "try_statement",
        "except_clause",
        "except_group_clause",
        "finally_clause",
        "with_statement",
    }
)


def at_module_level(node: Node) -> bool:
    """Whether an assignment (`@top` in python.scm) binds a name of the module: only
    conditional, `try` and `with` blocks lie between it and the module."""
    parent = node.parent
    while parent is not None and parent.type in _MODULE_BLOCKS:
        parent = parent.parent
    return parent is not None and parent.type == "module"


# what an import binds its names in when it stands inside one: the body of a function (and
# of the functions nested in it) or of a class; an `if`, `try`, `with` or loop binds nothing
_SCOPES = frozenset({"function_definition", "class_definition"})


def binding_scope(node: Node, local: str) -> list[tuple[int, int]] | None:
    """The spans an import statement (`node`: one of its nodes) binds `local` in: the body of
    the function it stands in (`from ._termui_impl import get_pager_file` inside click's
    termui.get_pager_file is no name of echo_via_pager's), or a class's body less its
    methods' and nested classes' bodies (python_scopes.class_body_spans: a class body's names
    are no method's in Python); None at module level, under `if TYPE_CHECKING:` or in a
    `try` too, and where the scope declares `global local` (its import binds the module's
    name), where it binds it for the whole file."""
    scope = node.parent
    while scope is not None and scope.type not in _SCOPES:
        scope = scope.parent
    body = scope.child_by_field_name("body") if scope is not None else None
    if scope is None or body is None or declares_global(body, local):
        return None
    if scope.type == "class_definition":
        return class_body_spans(body)
    return [(body.start_byte, body.end_byte)]


_CHAIN_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")
_DOT = ord(".")


def imported_member(node: Node, src: bytes, aliases: dict[str, str]) -> bool:
    """Whether the name `node` (python.scm's `@ref.value`: the last name of an attribute, or
    a bare name) is read through an import as a value, not called: `except click.Abort:`,
    `type=click.INT`, `click.utils._get_text_stream` passed as an argument,
    `isinstance(x, Request)` after `from .requests import Request`. The chain of names
    before it must start with an import's local name (`self.x`, `f().x` and a local's
    `obj.x` say nothing we can resolve), and a bare name must be one an import binds (a
    local's or a parameter's is none); a call is `@ref.call` already."""
    start, end = node.start_byte, node.end_byte
    if src[end : end + 1] == b"(":
        return False
    if not start or src[start - 1] != _DOT:
        name = src[start:end]
        if not name.isascii() or name.decode("ascii") not in aliases:
            return False
        parent = node.parent
        if parent is None or parent.type != "attribute":
            return True
        # the object of `x.y`: a value a method is called on (`wheel_file_re.match(...)`),
        # bound by a `from` import; `click.echo(...)` and `np.array(...)` call into a module
        called = parent.parent is not None and parent.parent.type == "call"
        return called and "." in aliases[name.decode("ascii")]
    head = start - 1
    while head and src[head - 1] in _CHAIN_BYTES:
        head -= 1
    first = src[head : start - 1].split(b".", 1)[0]
    return bool(first) and first.decode("ascii") in aliases


RULES = {
    "python": LanguageRules(
        at_file_level=at_module_level,
        import_scope=binding_scope,
        module_prefix=module_prefix,
        resolve_module=resolve_relative,
        references_through_imports=False,
        dotted_modules=True,
        imported_member=imported_member,
        local_shadows=local_shadows,
    )
}
