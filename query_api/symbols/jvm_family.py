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

from query_api.symbols.families import FamilyRules, Imports
from streams.stores.views.symbols import ReferenceRow, SymbolRow

_TYPE_KINDS = frozenset({"Type", "Interface", "Enum"})
_KOTLIN = (".kt", ".kts")


class JvmFamily(FamilyRules):
    def __init__(self) -> None:
        super().__init__("jvm")

    def in_scope(self, ref: ReferenceRow, imports_of: Imports, targets: list[SymbolRow]) -> bool:
        """A bare name means a declaration of the file's package, of a wildcard import's
        package or class, or of a target whose package is unknown."""
        folder = posixpath.dirname(ref.path)
        return any(_names_in_scope(folder, ref.path, imports_of, s) for s in targets)

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
        if ref.qualified in {q for s in targets for q in _through_file_class(s)}:
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


def _through_file_class(target: SymbolRow) -> list[str]:
    """How Java qualifies a Kotlin top-level declaration: through the class of its file,
    named for the file (`ExtensionsKt`) or by `@file:JvmName` (retrofit's
    KotlinExtensions.kt: `KotlinExtensions`, its name taken as the file's)."""
    name = _top_level_name(target)
    if name is None or target.kind in _TYPE_KINDS:  # a class is its own, not the file's
        return []
    package, _, simple = name.rpartition(".")
    stem = posixpath.splitext(posixpath.basename(target.path))[0]
    return [f"{package}.{stem}.{simple}", f"{package}.{stem}Kt.{simple}"]


def _is_extension(target: SymbolRow) -> bool:
    """Whether `target` is a Kotlin top-level extension function (`fun Format.asFactory()`,
    `fun <T> Call<T>.await()`): its signature writes a receiver before its name."""
    signature = target.signature or ""
    return (
        _top_level_name(target) is not None
        and f".{target.name}(" in signature.replace(" ", "")
        and "fun" in signature.split()
    )
