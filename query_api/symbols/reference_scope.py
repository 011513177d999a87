"""What a reference can mean, for the dependents resolver (dependents.py): the language
families whose code names each other's declarations, how a qualified name matches a
declaration's fully-qualified one, and ReferenceScope, which decides for one answer whether
a reference row names one of the declarations asked about."""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from processors.language import language_for_path
from processors.symbols.languages.rust import ANCHORS
from query_api.symbols.js_modules import UNQUALIFIED_MATCH_KINDS, JsModules
from query_api.symbols.python_modules import PythonModules
from query_api.symbols.rust_modules import RustModules
from streams.stores.views.symbols import ReferenceRow, SymbolRow, SymbolViews

# languages whose code names each other's declarations through imports; a qualified
# reference never resolves to a declaration outside its own family (a Java import of
# `com.shop.OrderService` says nothing about a TypeScript `OrderService`)
_FAMILIES = {
    "typescript": "js",
    "javascript": "js",
    "c": "c",
    "cpp": "c",
    "java": "jvm",
    "kotlin": "jvm",
}


PACKAGE_IS_DIRECTORY = frozenset({"go", "jvm"})  # a package's files share one directory


def language_family(path: str) -> str:
    language = language_for_path(path)
    return _FAMILIES.get(language, language)


_COMPANION = ".Companion."
MACRO_EXPORT = "#[macro_export"  # in a macro's signature, with its attributes


def qualified_match(qualified: str, fq_name: str) -> bool:
    """`pkg.mod.Name` vs `src.pkg.mod.Name` (or `billing.Charge` vs `x.com/billing.Charge`).
    A Kotlin unnamed companion object's member (`okio.ByteString.Companion.of`) is called
    through its class (`ByteString.of`): either spelling matches."""
    fq = fq_name.split("(", 1)[0]
    if qualified == fq or fq.endswith("." + qualified) or qualified.endswith("." + fq):
        return True
    if _COMPANION in fq and _COMPANION not in qualified:
        return qualified_match(qualified, fq.replace(_COMPANION, ".", 1))
    return False


class ReferenceScope:
    """What one dependents lookup knows about the referencing files, each fact read once:
    a file's language family and imports, its language family's import rules (js_modules,
    python_modules), and which files declare (or whose package declares) an unqualified name
    themselves."""

    def __init__(
        self,
        symbols: SymbolViews,
        repo_id: str,
        js: JsModules,
        rust: Callable[[], RustModules] | None = None,
    ) -> None:
        self.symbols = symbols
        self.repo_id = repo_id
        self.js = js
        self.python = PythonModules(symbols, repo_id)
        # the Rust module tree, made when a Rust reference is first asked about
        self._make_rust = rust or (lambda: RustModules(symbols, repo_id, js.read_text))
        self._rust: RustModules | None = None
        # (path, name, qualified) -> whether it names one of the targets of its name
        self._rust_answers: dict[tuple[str, str, str | None], bool] = {}
        self._family: dict[str, str] = {}  # path -> language family
        self._imports: dict[str, list[str]] = {}  # path -> the modules it imports
        self._self_declared: set[tuple[str, str]] = set()  # (path or "dir/", name)

    def family_of(self, path: str) -> str:
        if path not in self._family:
            self._family[path] = language_family(path)
        return self._family[path]

    def note_self_declared(self, free: list[str], exclude: set[str]) -> None:
        """A file declaring an unqualified name itself means its own declaration; so does a
        file whose package (Go, Java, Kotlin: its directory) declares it in another file."""
        for s in self.symbols.symbols_named(self.repo_id, free):
            if s.path not in exclude:
                self._self_declared.add((s.path, s.name))
                if self.family_of(s.path) in PACKAGE_IS_DIRECTORY:
                    self._self_declared.add((posixpath.dirname(s.path) + "/", s.name))

    def imports_of(self, path: str) -> list[str]:
        if path not in self._imports:
            self._imports[path] = self.symbols.imports_of_file(self.repo_id, path)
        return self._imports[path]

    def in_scope(self, ref: ReferenceRow, family: str, targets: list[SymbolRow]) -> bool:
        """Whether an unqualified name can mean another file's declaration at all. Python:
        only through a star import. TS/JS: an ES or CommonJS module names what other
        modules declare through its imports, so its unqualified `query.isStale()` or
        `render()` is its own, a global's or a method's; only a script (no imports) or a
        declaration file's global (`.d.ts`) shares names that way."""
        if family == "python":
            return self.python.star_imported(self.imports_of(ref.path), targets)
        if family == "js" and ref.qualified is None:
            return not self.imports_of(ref.path) or any(s.path.endswith(".d.ts") for s in targets)
        return True

    def means(self, ref: ReferenceRow, targets: list[SymbolRow]) -> bool:
        """Whether `ref` names one of `targets` (declarations sharing its simple name)."""
        family = self.family_of(ref.path)
        if family == "rust":  # a file names the same path again and again
            key = (ref.path, ref.name, ref.qualified)
            if key not in self._rust_answers:
                rust_targets = [s for s in targets if self.family_of(s.path) == family]
                self._rust_answers[key] = self.rust_means(ref, rust_targets)
            return self._rust_answers[key]
        if ref.qualified is None:
            return self.means_unqualified(ref, family, targets)
        if family == "js":
            js_match = self.js.matches(ref.path, ref.qualified, targets)
            if js_match is None:  # a package's name (`react`): matched by name
                return self.means_unqualified(ref, family, targets)
            return bool(js_match)
        if family == "python":
            return any(
                self.family_of(s.path) == family and self.python.matches(ref.qualified, s)
                for s in targets
            )
        return any(
            self.family_of(s.path) == family and qualified_match(ref.qualified, s.fq_name)
            for s in targets
        )

    def rust_means(self, ref: ReferenceRow, targets: list[SymbolRow]) -> bool:
        """A Rust reference names a declaration of another file only by a path that leads
        there (rust_modules): the use leaf or path the extractor qualified it with, or the
        name (or path) after a glob import (`use crate::flags::defs::*`). A bare name
        otherwise is the file's own, the prelude's or a method's; only a `#[macro_export]`
        macro is seen by name, in the crate that defines it (another `macro_rules!` is its
        file's, as a `write!` helper beside std's is)."""
        if not targets:
            return False
        if self._rust is None:
            self._rust = self._make_rust()
        rust = self._rust
        written = ref.qualified or ref.name
        # through a glob, `Foo::new()` after `use crate::a::*` is `crate.a.Foo.new`
        paths = [written] if ref.qualified else []
        if written.partition(".")[0] not in ANCHORS:
            paths += [f"{module}.{written}" for module in rust.glob_imports(ref.path)]
        if any(rust.declares(path, ref.path, targets) for path in paths):
            return True
        macros = [s for s in targets if MACRO_EXPORT in s.signature]
        return bool(macros) and any(
            rust.crate_root(s.path) == rust.crate_root(ref.path) is not None for s in macros
        )

    def means_unqualified(self, ref: ReferenceRow, family: str, targets: list[SymbolRow]) -> bool:
        """A name matched by its simple name: in scope, not declared by the referencing file
        or its package, and declared module-level-ish in the same family."""
        directory = (posixpath.dirname(ref.path) + "/", ref.name)
        return (
            self.in_scope(ref, family, targets)
            and (ref.path, ref.name) not in self._self_declared
            and (family not in PACKAGE_IS_DIRECTORY or directory not in self._self_declared)
            and any(
                s.kind in UNQUALIFIED_MATCH_KINDS and self.family_of(s.path) == family
                for s in targets
            )
        )
