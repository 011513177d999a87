"""A query word and the forms of it a line may write: its plural or its singular.

A hit's lines are picked by the query words they hold (hit_details.line_score), token by
token, so `add missing migrations check` found no `Migration` line in a file whose lines said
`migration` throughout, and the range fell back to a line holding only `check`. English
plurals differ from their singular by an ending only; the forms here are those endings, and
each stays a substring match for the line bound the scorer relies on: a word and its forms
share `needle`, which every form holds.

A verb a question writes as its participle is its stem in code: `where is the cache cleared`
asks for `clearCache`, `where are JWKS keys fetched` for `fetchJwks` (QA on middyjs/middy:
the first pointed packages/util/index.js at `const sanitizeKeyCache = new Map()`, which holds
`cache` alone). So a word ending `-ed` or `-ing` has its stems for forms too (`clear`,
`cache` for `caching`, `stop` for `stopped`, `copy` for `copied`), beside its plurals, since
`string` and `embed` are no participles.
"""

from __future__ import annotations

import functools

_NOT_PLURAL = ("ss", "us", "is", "os")  # class, status, axis, kudos: no plural ending to drop
# Rust writes an implementation `impl`: `where is the Reply trait implemented for Result` is
# `impl<T, E> Reply for Result<T, E>` (QA on seanmonstar/warp pointed at `pub trait Reply`)
_IMPLEMENT, _IMPL = "implement", "impl"


@functools.lru_cache(maxsize=4096)
def singular(word: str) -> str | None:
    """The singular of a plural `word` (`entries` -> `entry`, `classes` -> `class`,
    `migrations` -> `migration`), or None where `word` reads as no plural."""
    if len(word) < 4 or not word.endswith("s") or word.endswith(_NOT_PLURAL):
        return None
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes", "zzes")):
        return word[:-2]
    return word[:-1]


_UNDOUBLED = frozenset("lsfz")  # `missing` is `miss`, `filled` is `fill`: a doubled base
# letters a participle's stem keeps at least (`used`, `string`, `thing`: none)
_MIN_STEM = {"ed": 3, "ing": 4}


@functools.lru_cache(maxsize=4096)
def participle_stems(word: str) -> frozenset[str]:
    """The stems a past or present participle may be written as in code (`cleared` ->
    `clear`, `cleare`; `caching` -> `cach`, `cache`; `stopped` -> `stop`; `copied` ->
    `copy`), none for a word with neither ending or too short a stem."""
    for ending in ("ed", "ing"):
        base = word[: -len(ending)]
        if not word.endswith(ending) or len(base) < _MIN_STEM[ending] or not base.isalpha():
            continue
        stems = {base, base + "e"}
        if ending == "ed" and base.endswith("i"):
            stems.add(base[:-1] + "y")  # copied
        if base[-1] == base[-2] and base[-1] not in _UNDOUBLED and len(base) > _MIN_STEM["ed"]:
            stems.add(base[:-1])  # stopped, logging
        return frozenset(stems)
    return frozenset()


@functools.lru_cache(maxsize=4096)
def forms(word: str) -> frozenset[str]:
    """The other forms of `word` a line may hold as a token: its singular (or both, for an
    `-ies` plural) where it reads as a plural, else its plurals."""
    one = singular(word)
    impl = frozenset({_IMPL}) if word.startswith(_IMPLEMENT) else frozenset()
    if one is not None:
        # `-ies` is `-y` (entries) or `-ie` (cookies, movies): QA on tinyhttp/tinyhttp read
        # `tests for cookies` as `cooky` and named no tests/modules/cookie.test.ts
        ie = frozenset({word[:-1]}) if word.endswith("ies") else frozenset()
        return frozenset({one}) | ie | impl
    if len(word) < 3:
        return frozenset()
    return frozenset({word + "s", word + "es"}) | impl | participle_stems(word)


def needle(word: str) -> str:
    """What every form of `word` holds: the word, or the part its singular or stems share with
    it (`entr` for `entries`, `clear` for `cleared`), `impl` for the words of implementing."""
    if word.startswith(_IMPLEMENT):
        return _IMPL
    n = len(word)
    for form in forms(word):
        n = next((i for i, (a, b) in enumerate(zip(word[:n], form, strict=False)) if a != b), n)
        n = min(n, len(form))
    return word[:n]
