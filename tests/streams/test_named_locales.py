"""A request naming a language ("Translate to thai", "add german translations") ranks that
language's locale file first: translations/th/th.go, locales/de.json. QA on
go-playground/validator: "Translate to thai", "Add Ukrainian translation", "Fix: Nil pointer
dereference in Arabic translations" and "where are the French translations" placed no file of
translations/th, uk, ar or fr in the first ten, and "add german translations" put de.go tenth:
a locale file holds its messages in its own language and neither the language's name nor, in
English, the request's other words, so every other locale ranked with it."""

from __future__ import annotations

from pathlib import Path

from processors.locale_names import locale_weight, named_locales
from streams.stores.views.search import keyword_hits
from tests.streams.symbol_records import views_holding


def _locale(package: str, message: str) -> str:
    return (
        f"package {package}\n\n// RegisterDefaultTranslations registers the translations.\n"
        "func RegisterDefaultTranslations(v *Validate, trans Translator) error {\n"
        f'\treturn add(trans, "required", "{message}", translateFunc)\n}}\n\n'
        "func translateFunc(trans Translator, fe FieldError) string { return trans.T(fe) }\n"
    )


FILES = {
    "errors.go": (
        "package validator\n\n// Translate translates the error with a translator.\n"
        "func (e *FieldError) Translate(trans Translator) string { return trans.T(e.tag) }\n\n"
        "// a nil pointer dereference guard\nfunc check(p *int) bool { return p == nil }\n"
    ),
    "translations/en/en.go": _locale("en", "{0} is a required field"),
    "translations/de/de.go": _locale("de", "{0} ist ein Pflichtfeld"),
    "translations/th/th.go": _locale("th", "จำเป็นต้องระบุ {0}"),
    "translations/pt/pt.go": _locale("pt", "{0} é obrigatório"),
    "translations/pt_BR/pt_BR.go": _locale("pt_BR", "{0} é um campo obrigatório"),
    "translations/th/th_test.go": "package th\n\nfunc TestTranslations(t *T) {}\n",
    "th.go": "package validator\n\n// th is no locale: outside a locale folder\nfunc th() {}\n",
}


def test_the_locale_file_of_a_language_a_request_names_ranks_first(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:

        def first(query: str) -> str:
            return keyword_hits(store, "r", query, 10)[0].path

        assert first("Translate to thai") == "translations/th/th.go"
        assert first("add german translations") == "translations/de/de.go"
        assert first("fix the Portuguese translation of required") == "translations/pt/pt.go"
        assert first("fix the Brazilian Portuguese translation of required") == (
            "translations/pt_BR/pt_BR.go"
        )


def test_a_locale_is_the_part_right_below_a_locale_folder() -> None:
    thai = named_locales("Translate to thai")
    assert locale_weight("translations/th/th.go", thai) == 1
    assert locale_weight("translations/th/th_test.go", thai) == 1
    assert locale_weight("src/locales/th.json", thai) == 1
    assert locale_weight("conf/locale/th/LC_MESSAGES/django.po", thai) == 1
    assert locale_weight("th.go", thai) == 0  # no locale folder
    assert locale_weight("translations/en/en.go", thai) == 0
    brazil = named_locales("Brazilian Portuguese translation")
    assert locale_weight("translations/pt_BR/pt_BR.go", brazil) == 2
    assert locale_weight("i18n/pt-BR.json", brazil) == 2
    assert locale_weight("translations/pt/pt.go", brazil) == 1
    # a region the request does not name is another locale
    assert locale_weight("translations/pt_BR/pt_BR.go", named_locales("Portuguese")) == 0
    # a region word alone names no language
    assert named_locales("Brazilian address formats") == (frozenset(), frozenset())
