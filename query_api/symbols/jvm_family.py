"""Java's and Kotlin's rules for the dependents resolver (families.FamilyRules).

An import names one declaration (`import org.shop.input.Tailer`), and the extractor qualifies
what it binds; a bare name means a declaration of the referencing file's own package, of a
package or class a wildcard import opens (`import org.shop.input.*`), or of the file itself.
The base rule matched a bare name against every type of that name in the repository, so each
`Builder` written in `new CharStream.Builder()` counted as a use of every nested `Builder`.

A package is a directory by convention only, and one package spans source roots
(`src/main/java/org/shop/` and `src/test/java/org/shop/`): a file is in a declaration's package
when its directory ends with the package's path. The package is what the fully-qualified name
holds before the declaring file's name (`org.shop.input` of `org.shop.input.Tailer.Builder` in
Tailer.java); where the file's name is not in it (a Kotlin file of top-level functions), the
package is the longest part of the name the file's directory ends with (`org.shop` of
`org.shop.create` in org/shop/Extensions.kt), and unknown where none is: the name then stays
in scope, as before; so it does where the declaring file's directory does not end with its
package's path (a layout that does not mirror them). Java names a Kotlin top-level function
through the file's class (`Extensions.create`, `import static org.shop.ExtensionsKt.create`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from query_api.symbols.families import FamilyRules, Imports
from streams.stores.views.symbols import ReferenceRow, SymbolRow

_TYPE_KINDS = frozenset({"Type", "Interface", "Enum"})
_KOTLIN = (".kt", ".kts")
_JVM_NAME = re.compile(r'@file\s*:\s*JvmName\(\s*"([^"]+)"\s*\)')


class JvmFamily(FamilyRules):
    """`references`: who references these simple names (to find the Java files naming a
    Kotlin file's class); `read_text`: a file's stored text (its `@file:JvmName`). Without
    them a Kotlin file's class is taken to be named for the file, and not looked for."""

    def __init__(
        self,
        references: Callable[[list[str]], list[ReferenceRow]] | None = None,
        read_text: Callable[[str], str | None] | None = None,
    ) -> None:
        super().__init__("jvm")
        self._references = references
        self._read_text = read_text
        self._classes: dict[str, list[str]] = {}  # Kotlin file -> its class's names
        self._users: dict[str, set[str]] = {}  # class name -> the files referencing it

    def in_scope(self, ref: ReferenceRow, imports_of: Imports, targets: list[SymbolRow]) -> bool:
        """A bare name means a declaration of the file's package, of a wildcard import's
        package or class, or of a target whose package is unknown; in Java, a Kotlin
        top-level function only where the file names the Kotlin file's class
        (`KotlinExtensions.await(...)`): a bare `create` there is a method's."""
        folder = posixpath.dirname(ref.path)
        return any(
            _names_in_scope(folder, ref.path, imports_of, s)
            for s in targets
            if not ref.path.endswith(".java") or self._java_reaches(ref.path, s)
        )

    def _java_reaches(self, path: str, target: SymbolRow) -> bool:
        """Whether the Java file `path` may call `target`: it is no Kotlin top-level
        function, or `path` references its file's class (or who does is not known)."""
        if self._references is None or not _is_top_level_function(target):
            return True
        return any(path in self._users_of(name) for name in self._class_names(target.path))

    def _users_of(self, name: str) -> set[str]:
        if name not in self._users:
            assert self._references is not None  # asked only where there are references
            self._users[name] = {r.path for r in self._references([name])}
        return self._users[name]

    def _class_names(self, path: str) -> list[str]:
        """The names Java calls a Kotlin file's class by: its `@file:JvmName`, else
        `<File>Kt` (and the file's name where the text is not at hand)."""
        if path not in self._classes:
            stem = posixpath.splitext(posixpath.basename(path))[0]
            text = self._read_text(path) if self._read_text is not None else None
            named = _JVM_NAME.search(text) if text is not None else None
            if named is not None:
                self._classes[path] = [named.group(1)]
            else:
                self._classes[path] = [f"{stem}Kt"] if text is not None else [stem, f"{stem}Kt"]
        return self._classes[path]

    def _through_file_class(self, target: SymbolRow) -> set[str]:
        """How Java qualifies a Kotlin top-level function: through its file's class
        (`org.shop.Extensions.create` for `org.shop.create`)."""
        name = _top_level_name(target)
        if name is None or not _is_top_level_function(target):
            return set()
        package, _, simple = name.rpartition(".")
        return {f"{package}.{c}.{simple}" for c in self._class_names(target.path)}

    def same_package(self, folder: str, s: SymbolRow) -> bool:
        """One package spans source roots (`src/main/java/org/shop`, `src/main/java16/
        org/shop`): a file of `folder` is in `s`'s where both directories end with the
        package's path (a package read from the name only, not assumed)."""
        scopes = declaring_scopes(s)
        if posixpath.dirname(s.path) == folder or not scopes or not scopes[0]:
            return posixpath.dirname(s.path) == folder
        package_path = "/" + scopes[0].replace(".", "/")
        declaring = "/" + posixpath.dirname(s.path)
        return declaring.endswith(package_path) and ("/" + folder).endswith(package_path)

    def means(self, ref: ReferenceRow, targets: list[SymbolRow]) -> bool | None:
        """As the base rule, and a Java name qualified by a Kotlin file's class
        (`org.shop.Extensions.create`) means that file's top-level `org.shop.create`."""
        answer = super().means(ref, targets)
        if answer is not False or ref.qualified is None:
            return answer
        if any(ref.qualified in self._through_file_class(s) for s in targets):
            return True
        # Kotlin qualifies `Json.asFactory()` through the receiver's import, as a member of
        # Json; an extension of that name may be what it calls: decide by the bare name
        if ref.path.endswith(_KOTLIN) and any(_is_extension(s) for s in targets):
            return None
        return False


def _names_in_scope(folder: str, path: str, imports_of: Imports, target: SymbolRow) -> bool:
    if posixpath.dirname(target.path) == folder or in_package_of(folder, target):
        return True
    scopes = declaring_scopes(target)
    opened = set(imports_of(path))  # `import a.b.*` is recorded as `a.b`
    if scopes is None:
        return False
    # a Kotlin import of a top-level name (`import org.shop.create`) brings it in bare
    return any(scope in opened for scope in scopes) or _top_level_name(target) in opened


def names_in_reach(test: SymbolRow, declared: list[SymbolRow], rivals: list[SymbolRow]) -> bool:
    """Whether a Java or Kotlin test type named for a declaration (`CartTest` for `Cart`)
    may test it: not where the test's own package declares a type of that name and the
    declaration's package is another (`rivals`: the types named as `declared` are). retrofit's
    jaxb3 module has its own JaxbConverterFactory and JaxbConverterFactoryTest, no test of the
    jaxb module's factory; a test elsewhere that uses the declaration references it, and is one
    of its tests as a dependent. A test kept in a package of tests (junit4's
    org.junit.tests.*) with no rival still counts."""
    folder = posixpath.dirname(test.path)
    if any(in_package_of(folder, s) for s in declared):
        return True
    own = {(s.path, s.fq_name) for s in declared}
    return not any((s.path, s.fq_name) not in own and in_package_of(folder, s) for s in rivals)


def in_package_of(folder: str, target: SymbolRow) -> bool:
    """Whether a file of `folder` is in `target`'s package: its directory ends with the
    package's path; so is every file where the package is unknown, or where the declaring
    file's directory does not end with it (a layout that does not mirror packages)."""
    scopes = declaring_scopes(target)
    if scopes is None or not scopes[0]:
        return True
    package_path = "/" + scopes[0].replace(".", "/")
    if not ("/" + posixpath.dirname(target.path)).endswith(package_path):
        return True
    return ("/" + folder).endswith(package_path)


def declaring_scopes(target: SymbolRow) -> list[str] | None:
    """The package holding `target`, then each class enclosing it, outermost first
    (`org.shop.input`, `org.shop.input.Tailer` for `org.shop.input.Tailer.Builder` in
    Tailer.java); None where neither the declaring file's name is in its name nor its
    directory ends with a part of it."""
    top = _package_length(target)
    if top is None:
        return None
    parts = target.fq_name.split("(", 1)[0].split(".")
    return [".".join(parts[:end]) for end in range(top, len(parts))]


def _package_length(target: SymbolRow) -> int | None:
    """How many parts of `target`'s name are its package: those before the declaring file's
    name, else (a Kotlin file of top-level declarations) the most the file's directory ends
    with; None where neither says."""
    stem = posixpath.splitext(posixpath.basename(target.path))[0]
    parts = target.fq_name.split("(", 1)[0].split(".")
    if stem in parts:
        return parts.index(stem)
    directory = "/" + posixpath.dirname(target.path)
    for top in range(len(parts) - 1, 0, -1):
        if directory.endswith("/" + "/".join(parts[:top])):
            return top
    return None


def _top_level_name(target: SymbolRow) -> str | None:
    """`org.shop.create` for a Kotlin top-level declaration (no class holds it), else None."""
    if not target.path.endswith(_KOTLIN):
        return None
    top = _package_length(target)
    parts = target.fq_name.split("(", 1)[0].split(".")
    return ".".join(parts) if top is not None and top == len(parts) - 1 else None


def _is_top_level_function(target: SymbolRow) -> bool:
    """A Kotlin declaration of the file's own, no class (Java reaches it through the
    file's class only)."""
    return _top_level_name(target) is not None and target.kind not in _TYPE_KINDS


def _is_extension(target: SymbolRow) -> bool:
    """Whether `target` is a Kotlin top-level extension function (`fun Format.asFactory()`,
    `fun <T> Call<T>.await()`): its signature writes a receiver before its name."""
    signature = target.signature or ""
    return (
        _top_level_name(target) is not None
        and f".{target.name}(" in signature.replace(" ", "")
        and "fun" in signature.split()
    )
