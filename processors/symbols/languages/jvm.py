"""Java: `import com.shop.Invoice` names one declaration, so the local name `Invoice` is
bound to it and a call through it references it (Kotlin's rules, kotlin.py, say the same).

An import of a nested type or a static member (`import com.shop.Invoice.Line`, `import static
com.shop.Invoice.total`) reaches it through its class: the file uses `Invoice` too, though it
never writes the name bare, so `what uses Invoice` must list it (QA on google/guice: the tests
importing `RealMapBinder.ProviderMapEntry` and `RealMapBinder.mapOf` were missing).
"""

from __future__ import annotations

from processors.symbols.languages.base import LanguageRules


def enclosing_types(imported: str) -> list[str]:
    """The classes an imported name is reached through, outermost first: the parts of its
    path before the last that are written as types are (a capital first letter; packages are
    lower case by the languages' conventions), each with its package."""
    parts = imported.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts) - 1) if parts[i][:1].isupper()]


RULES = {"java": LanguageRules(import_binds_declaration=True, import_owners=enclosing_types)}
