"""Java: `import com.shop.Invoice` names one declaration, so the local name `Invoice` is
bound to it and a call through it references it (Kotlin's rules, kotlin.py, say the same)."""

from __future__ import annotations

from processors.symbols.languages.base import LanguageRules

RULES = {"java": LanguageRules(import_binds_declaration=True)}
