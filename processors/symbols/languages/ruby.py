"""Ruby: an import is a plain call with a string (`require "x"`, `require_relative`,
`load`, `autoload`), told from other calls by the called name."""

from __future__ import annotations

from processors.symbols.languages.base import LanguageRules

RULES = {
    "ruby": LanguageRules(
        import_calls=frozenset({"require", "require_relative", "load", "autoload"})
    )
}
