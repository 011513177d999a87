"""Which files a mined localisation case may name as its answer: the source a change request
is answered with, never a test, a doc page, an example, config or a generated file.

`repocontext eval` and the localisation benchmark (tests/bench/localisation/mine.py) pick
gold files by this one rule, so a user's figures and the benchmark's mean the same thing: a
commit that tweaks `docs/conf.py` or a test helper asks nothing an agent searches source for.
"""

from __future__ import annotations

import re

from processors.language import language_for_path

CODE_LANGUAGES = frozenset(
    {"python", "javascript", "typescript", "go", "rust", "java", "kotlin", "csharp", "fsharp",
     "vbnet", "ruby", "php", "c", "cpp", "swift", "scala"}
)  # fmt: skip

_TEST_PATH = re.compile(
    r"(^|/)(tests?|testing|testdata|test-?utils?|__tests__|__mocks__|specs?|e2e|benches|"
    r"benchmarks?|fixtures?|__snapshots__|type-?tests?|typetests?|mocks?)(/|$)"
    r"|(^|/)src/test/"
    r"|(^|/)(test_[^/]*|[^/]*_test\.\w+|[^/]*\.(test|spec|test-d|bench)\.\w+|conftest\.py)$"
    r"|(^|/)[^/]*Tests?\.java$",
    re.IGNORECASE,
)
_DOC_PATH = re.compile(
    r"(^|/)(docs?|documentation|www|website|site|examples?|samples?|demo|playground)(/|$)"
    r"|^\.github/|^\.changeset/|(^|/)changelog[^/]*$",
    re.IGNORECASE,
)
_GENERATED_PATH = re.compile(
    r"(^|/)(vendor|vendored|third_party|node_modules|dist|build|generated|gen)(/|$)"
    r"|\.min\.\w+$|\.generated\.\w+$|_generated\.\w+$|\.pb\.go$|_pb2\.py$|\.snap$"
    r"|(^|/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|go\.sum|poetry\.lock)$",
    re.IGNORECASE,
)


def is_gold_path(path: str) -> bool:
    """A source file a change request would be answered with: code, not test/doc/generated."""
    return (
        language_for_path(path) in CODE_LANGUAGES
        and not _TEST_PATH.search(path)
        and not _DOC_PATH.search(path)
        and not _GENERATED_PATH.search(path)
    )
