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
package is unknown and the name stays in scope, as before; so it does where the declaring
file's directory does not end with its package's path (a layout that does not mirror them).
"""

from __future__ import annotations

import posixpath

from query_api.symbols.families import FamilyRules, Imports
from streams.stores.views.symbols import ReferenceRow, SymbolRow


class JvmFamily(FamilyRules):
    def __init__(self) -> None:
        super().__init__("jvm")

    def in_scope(self, ref: ReferenceRow, imports_of: Imports, targets: list[SymbolRow]) -> bool:
        """A bare name means a declaration of the file's package, of a wildcard import's
        package or class, or of a target whose package is unknown."""
        folder = posixpath.dirname(ref.path)
        return any(_names_in_scope(folder, ref.path, imports_of, s) for s in targets)


def _names_in_scope(folder: str, path: str, imports_of: Imports, target: SymbolRow) -> bool:
    if posixpath.dirname(target.path) == folder:
        return True
    scopes = declaring_scopes(target)
    if scopes is None:
        return True  # the package is unknown
    package_path = "/" + scopes[0].replace(".", "/")
    if not scopes[0] or not ("/" + posixpath.dirname(target.path)).endswith(package_path):
        return True  # no package, or a layout where directories do not mirror packages
    if ("/" + folder).endswith(package_path):
        return True
    opened = set(imports_of(path))  # `import a.b.*` is recorded as `a.b`
    return any(scope in opened for scope in scopes)


def declaring_scopes(target: SymbolRow) -> list[str] | None:
    """The package holding `target`, then each class enclosing it, outermost first
    (`org.shop.input`, `org.shop.input.Tailer` for `org.shop.input.Tailer.Builder` in
    Tailer.java); None where the declaring file's name is not in its name."""
    stem = posixpath.splitext(posixpath.basename(target.path))[0]
    parts = target.fq_name.split("(", 1)[0].split(".")
    if stem not in parts:
        return None
    top = parts.index(stem)
    return [".".join(parts[:end]) for end in range(top, len(parts))]
