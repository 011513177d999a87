"""Python's import rules for dependents resolution: what a qualified name (`flask.app.Flask`,
resolved through the file's imports by the extractor) may mean among declarations keyed by
their files' paths (`src.flask.app.Flask`), and which unqualified names a star import brings.

- an absolute import may leave out the leading folders of the path that are no package (a
  source folder, `src`), never a package: `json.dumps` (the standard library's) is not
  `src.flask.json.dumps`, since src/flask/__init__.py makes that `flask.json`;
- a package re-exports a module-level declaration of one of its modules: `from shop import
  OrderService` (shop/__init__.py: `from .orders import OrderService`) is
  `shop.orders.OrderService`; never a member (`click.command` is not `Context.command`);
- an unqualified name can only come from `from <module> import *`: every other name from
  another module is imported by name, and so qualified;
- `from . import types` imports the module `types` when it is a file, else a name the
  package declares (the extractor records `<package>.types`; `imports` decides).
Which folders are packages is read from the views (one point read per folder per answer).
"""

from __future__ import annotations

from processors.symbols.extract import module_prefix
from streams.stores.views.symbols import SymbolRow, SymbolViews


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


class PythonModules:
    """Python's rules for one answer, with which folders are packages read once each."""

    def __init__(self, symbols: SymbolViews, repo_id: str) -> None:
        self.symbols = symbols
        self.repo_id = repo_id
        self._roots: dict[str, bool] = {}  # fq prefix -> whether it is off the import path

    def matches(self, qualified: str, target: SymbolRow) -> bool:
        """Whether the qualified reference `qualified` means `target` (see module doc)."""
        module = module_prefix(target.path, "python")
        return names_declaration(qualified, target.fq_name, module) and self.importable(
            skipped_prefix(qualified, target.fq_name)
        )

    def importable(self, prefix: str) -> bool:
        """Whether an absolute import can skip `prefix`: only when that folder is not itself
        a package (see module doc)."""
        if not prefix:
            return True
        if prefix not in self._roots:
            init = prefix.replace(".", "/") + "/__init__.py"
            self._roots[prefix] = not self.symbols.indexed_paths(self.repo_id, [init])
        return self._roots[prefix]

    def star_imported(self, imports: list[str], targets: list[SymbolRow]) -> bool:
        """Whether a file importing `imports` may use one of `targets` unqualified: only
        through `from <their module> import *` (or their package's); an unqualified `load(f)`
        or `s.loads()` calls a parameter, a local or a method, not flask.json's `load`."""
        modules = [module_prefix(s.path, "python") for s in targets]
        for imported in imports:
            if not imported.endswith(".*"):
                continue
            for module in modules:  # `flask` names src/flask/..., `json` not src/flask/json
                skipped = prefix_before(module, imported[:-2].lstrip("."))
                if skipped is not None and self.importable(skipped):
                    return True
        return False

    def imported_modules(self, imports: list[str]) -> list[str]:
        """The modules a file's imports name: `pkg.types` of `from . import types` as it is
        when pkg/types.py (or a package pkg/types/) is indexed, else `pkg`, whose
        __init__.py declares the name; one point read for all of them."""
        named = [m for m in imports if "." in m and not m.endswith(".*")]
        paths = {m: _module_paths(m) for m in named}
        parents = {m: _module_paths(m.rpartition(".")[0]) for m in named}
        wanted = [p for group in (paths, parents) for ps in group.values() for p in ps]
        indexed = self.symbols.indexed_paths(self.repo_id, wanted) if wanted else set()
        out = []
        for module in imports:
            no_file = module in paths and indexed.isdisjoint(paths[module])
            if no_file and not indexed.isdisjoint(parents[module]):
                module = module.rpartition(".")[0]
            out.append(module)
        return sorted(set(out))


def _module_paths(module: str) -> tuple[str, str]:
    """The files a dotted module of the repository may be (its path, as module_prefix)."""
    path = module.replace(".", "/")
    return f"{path}.py", f"{path}/__init__.py"
