"""PHP: `use App\\Orders\\Invoice` names one declaration, so the local name `Invoice` is bound
to it and a call through it references it."""

from __future__ import annotations

from processors.symbols.languages.base import LanguageRules

RULES = {"php": LanguageRules(import_binds_declaration=True)}
