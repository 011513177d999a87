"""The natural languages a request names, and the locale files filed under their codes.

A translation lives in a file or folder called by its locale code (`translations/th/th.go`,
`locales/fr.ts`, `conf/locale/de/LC_MESSAGES/django.po`), while a request calls it by the
language's name ("Translate to thai", "fix russian E.164 error message", "add german
translations"). The locale file holds neither the name nor, often, any other word of the
request (its messages are in the language itself), so BM25 ranks it with every other locale.
Keyword search lifts the locale files of the languages a request names
(streams/stores/views/search.py).

A file is a named language's locale when a folder of its path is a locale folder
(LOCALE_DIRS) and the part right after it, a folder or the file's stem, is that language's
code: alone (`fr`), or with a region the request names too (`pt_BR` for "Brazilian
Portuguese", `zh_tw` for "Chinese (Taiwan)"); a plain "Portuguese" names `pt`, not `pt_BR`.
"""

from __future__ import annotations

import functools

from processors.tokenizer import tokenize

LOCALE_DIRS = frozenset(
    {"locale", "locales", "i18n", "l10n", "lang", "langs", "language", "languages",
     "translation", "translations"}
)  # fmt: skip

# ISO 639-1 codes, with the country codes some projects file a language under instead
# (`ua`, `cn`, `jp`, `kr`, `cz`).
LANGUAGE_CODES: dict[str, tuple[str, ...]] = {
    "arabic": ("ar",), "azerbaijani": ("az",), "bengali": ("bn",), "bulgarian": ("bg",),
    "catalan": ("ca",), "chinese": ("zh", "cn"), "croatian": ("hr",), "czech": ("cs", "cz"),
    "danish": ("da",), "dutch": ("nl",), "english": ("en",), "estonian": ("et",),
    "farsi": ("fa",), "finnish": ("fi",), "french": ("fr",), "georgian": ("ka",),
    "german": ("de",), "greek": ("el",), "hebrew": ("he",), "hindi": ("hi",),
    "hungarian": ("hu",), "icelandic": ("is",), "indonesian": ("id",), "italian": ("it",),
    "japanese": ("ja", "jp"), "kazakh": ("kk",), "khmer": ("km",), "korean": ("ko", "kr"),
    "latvian": ("lv",), "lithuanian": ("lt",), "malay": ("ms",), "mongolian": ("mn",),
    "norwegian": ("nb", "no"), "persian": ("fa",), "polish": ("pl",),
    "portuguese": ("pt",), "romanian": ("ro",), "russian": ("ru",), "serbian": ("sr",),
    "slovak": ("sk",), "slovenian": ("sl",), "spanish": ("es",), "swedish": ("sv",),
    "tamil": ("ta",), "thai": ("th",), "turkish": ("tr",), "ukrainian": ("uk", "ua"),
    "urdu": ("ur",), "uzbek": ("uz",), "vietnamese": ("vi",),
}  # fmt: skip

# The region words a request adds to a language ("Brazilian Portuguese"), as the region
# parts of a locale code (`pt_BR`, `zh-Hant`). A region word alone names no language.
REGION_CODES: dict[str, tuple[str, ...]] = {
    "brazil": ("br",), "brazilian": ("br",), "portugal": ("pt",), "taiwan": ("tw", "hant"),
    "taiwanese": ("tw", "hant"), "traditional": ("hant", "tw"), "simplified": ("hans", "cn"),
    "hong": ("hk",), "mexico": ("mx",), "mexican": ("mx",), "british": ("gb",),
    "american": ("us",), "canadian": ("ca",), "canada": ("ca",),
}  # fmt: skip


@functools.lru_cache(maxsize=4096)
def named_locales(query: str) -> tuple[frozenset[str], frozenset[str]]:
    """The language codes and the region codes of the languages `query` names; both empty
    when it names no language."""
    words = set(tokenize(query))
    languages = frozenset(code for word in words for code in LANGUAGE_CODES.get(word, ()))
    if not languages:
        return frozenset(), frozenset()
    regions = frozenset(code for word in words for code in REGION_CODES.get(word, ()))
    return languages, regions


def locale_weight(path: str, locales: tuple[frozenset[str], frozenset[str]]) -> int:
    """How closely `path` is filed under a language `locales` holds (named_locales), right
    below a locale folder: 2 under its code with a region the request names too (`pt_BR` for
    "Brazilian Portuguese"), 1 under the bare code, 0 when under neither."""
    languages, regions = locales
    if not languages:
        return 0
    parts = path.lower().split("/")
    best = 0
    for at, part in enumerate(parts[:-1]):
        if part not in LOCALE_DIRS:
            continue
        below = parts[at + 1]
        if at + 2 == len(parts):
            below = below.split(".", 1)[0]  # the file itself: its stem
        code = tokenize(below)
        if code and code[0] in languages and set(code[1:]) <= regions:
            best = max(best, 2 if len(code) > 1 else 1)
    return best
