"""Java and Kotlin: `import com.shop.Invoice` names one declaration, so the local name
`Invoice` is bound to it and a call through it references it."""

from __future__ import annotations

from processors.symbols.languages.base import LanguageRules

RULES = {
    "java": LanguageRules(import_binds_declaration=True),
    "kotlin": LanguageRules(import_binds_declaration=True),
}
