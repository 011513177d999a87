"""The tests a pasted `go test` run says failed: `--- FAIL: TestSchemeMatcher (0.01s)`, a
subtest's line (`--- FAIL: TestHost/with_port`) naming its test function before the slash.

Its other words (`FAIL`, the package's import path `github.com/gorilla/mux`, timings) rank
the package's main file: QA on gorilla/mux left old_test.go, the one file declaring
TestSchemeMatcher, out of the first five. The ladder lifts the files declaring the failed
tests to the head (ladder._tests_looked_up) and definition_sites points their hits at them.
"""

from __future__ import annotations

import re

# `go test -v` indents a subtest's line; the name is a Go identifier, then `/sub` or a blank
_GO_FAIL = re.compile(r"^[ \t]*--- FAIL: ([A-Za-z_]\w*)(?=[/\s]|$)", re.MULTILINE)


def failed_tests(query: str) -> list[str]:
    """The test functions the `--- FAIL:` lines the query holds name, each once, in order."""
    return list(dict.fromkeys(found.group(1) for found in _GO_FAIL.finditer(query)))
