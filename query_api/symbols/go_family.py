"""Go's rules for the dependents resolver (families.FamilyRules).

Go names another package's declarations only through an import (`gin.New()`, qualified by
the extractor: processors/symbols/languages/go.py); a bare name is its own package's, and a
package is a directory. So a reference the extractor left unqualified names a declaration of
the files asked about only from a file in the same directory: `validator.New()` in another
package, whose import the extractor could not bind, is not a call of this package's `New`.
(A dot import, `import . "x"`, would make another package's names bare too; it is rare
outside tests of external packages and is not followed.)

A member (a struct's field, a method) is never named by its bare name either: `c.Params` is a
selector, so a file declaring a field `Params` still means the package's type `Params` when it
writes `Params`, and so do the other files of its package. Only a package-level declaration
(`pkg.Name`: the package clause is one identifier) counts as a file's own.
"""

from __future__ import annotations

import posixpath

from query_api.symbols.families import FamilyRules, Imports
from streams.stores.views.symbols import ReferenceRow, SymbolRow


def package_level(s: SymbolRow) -> bool:
    """Whether `s` is declared at package level (`gin.New`, not `gin.Context.Param`)."""
    return s.fq_name.split("(", 1)[0].count(".") == 1


class GoFamily(FamilyRules):
    """Go for one answer (see the module doc)."""

    def __init__(self) -> None:
        super().__init__("go")

    def in_scope(self, ref: ReferenceRow, imports_of: Imports, targets: list[SymbolRow]) -> bool:
        """A bare name means a declaration of the referencing file's own package only."""
        folder = posixpath.dirname(ref.path)
        return any(posixpath.dirname(s.path) == folder for s in targets)

    def names_bare(self, s: SymbolRow) -> bool:
        """Only a package-level declaration is named by its bare name."""
        return package_level(s)
