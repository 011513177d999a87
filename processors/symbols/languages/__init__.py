"""Each language family's extraction rules in one place: what the extractor (extract.py,
matching.py, references.py) asks a language (its module path, how an import names a module
or a declaration, which calls import) instead of branching on language names. A family's
module (python, js_ts_imports, jvm, c_family, ...) says what differs; a language with no
entry gets `DEFAULT`, what most languages share.

The queries (queries/<lang>.scm) say which nodes declare, reference and import; these rules
say what the extractor makes of what the queries found.
"""

from __future__ import annotations

from processors.symbols.languages import (
    c_family,
    csharp,
    go,
    js_ts_imports,
    jvm,
    kotlin,
    php,
    python,
    ruby,
    rust,
)
from processors.symbols.languages.base import DEFAULT, LanguageRules

__all__ = ["DEFAULT", "LanguageRules", "rules_for"]

_BY_LANGUAGE: dict[str, LanguageRules] = {
    **python.RULES,
    **js_ts_imports.RULES,
    **jvm.RULES,
    **kotlin.RULES,
    **rust.RULES,
    **c_family.RULES,
    **csharp.RULES,
    **go.RULES,
    **ruby.RULES,
    **php.RULES,
}


def rules_for(language: str) -> LanguageRules:
    """The rules of a processors.language id (`typescript` for .tsx too)."""
    return _BY_LANGUAGE.get(language, DEFAULT)
