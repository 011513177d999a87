"""The tests a pasted test run says failed: `go test`'s `--- FAIL: TestSchemeMatcher (0.01s)`,
a subtest's line (`--- FAIL: TestHost/with_port`) naming its test function before the slash;
and a JVM build's, Maven Surefire's (`[ERROR]   WordUtilsTest.testWrap:580 expected: ...`,
`[ERROR] org.pkg.WordUtilsTest.testWrap  Time elapsed: 0.01 s  <<< FAILURE!`, JUnit 4's
`[ERROR] testWrap(org.pkg.WordUtilsTest)  Time elapsed: ...`) and Gradle's
(`WordUtilsTest > testWrap() FAILED`), each named by its class: `WordUtilsTest.testWrap`.

Its other words (`FAIL`, the package's import path `github.com/gorilla/mux`, timings) rank
the package's main file: QA on gorilla/mux left old_test.go, the one file declaring
TestSchemeMatcher, out of the first five; QA on apache/commons-text, Surefire's line for
WordUtilsTest.testWrap_StringIntStringBoolean left WordUtilsTest.java out of the first ten.
The ladder lifts the files declaring the failed tests to the head (ladder._tests_looked_up)
and definition_sites points their hits at them.
"""

from __future__ import annotations

import re

# `go test -v` indents a subtest's line; the name is a Go identifier, then `/sub` or a blank
_GO_FAIL = re.compile(r"^[ \t]*--- FAIL: ([A-Za-z_]\w*)(?=[/\s]|$)", re.MULTILINE)
_CLASS = r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*"  # a class, its package maybe before it
_METHOD = r"[A-Za-z_$][\w$]*"
# each pattern's groups: (class, method) or, marked so, (method, class)
_JVM_FAILS: tuple[tuple[re.Pattern[str], bool], ...] = (
    # Surefire's summary: `[ERROR]   WordUtilsTest.testWrap:580 expected: ...` (or ` » X`)
    (re.compile(rf"^\[ERROR\][ \t]+({_CLASS})\.({_METHOD})(?=:\d|[ \t]+»)", re.MULTILINE), False),
    # Surefire's per-test line, JUnit 5: `[ERROR] org.pkg.FooTest.testBar  Time elapsed: ...`
    (
        re.compile(
            rf"^\[ERROR\][ \t]+({_CLASS})\.({_METHOD})(?:\([^)\n]*\))?[ \t]+Time elapsed:"
            r"[^\n]*<<< (?:FAILURE|ERROR)!",
            re.MULTILINE,
        ),
        False,
    ),
    # JUnit 4's: `[ERROR] testBar(org.pkg.FooTest)  Time elapsed: ... <<< FAILURE!`
    (
        re.compile(
            rf"^\[ERROR\][ \t]+({_METHOD})\(({_CLASS})\)[ \t]+Time elapsed:"
            r"[^\n]*<<< (?:FAILURE|ERROR)!",
            re.MULTILINE,
        ),
        True,
    ),
    # Gradle's: `FooTest > testBar() FAILED`, `org.pkg.FooTest > testBar FAILED`
    (
        re.compile(
            rf"^[ \t]*({_CLASS})[ \t]+>[ \t]+({_METHOD})(?:\([^)\n]*\))?[ \t]+FAILED\b",
            re.MULTILINE,
        ),
        False,
    ),
)


def failed_tests(query: str) -> list[str]:
    """The tests the failure lines the query holds name, each once: a Go test
    function's name, a JVM test method's as `Class.method` (the class without its package,
    or a nested class's outer classes)."""
    found = [m.group(1) for m in _GO_FAIL.finditer(query)]
    for pattern, method_first in _JVM_FAILS:
        for m in pattern.finditer(query):
            owner, method = (m.group(2), m.group(1)) if method_first else m.group(1, 2)
            found.append(f"{re.split(r'[.$]', owner)[-1]}.{method}")
    return list(dict.fromkeys(found))
