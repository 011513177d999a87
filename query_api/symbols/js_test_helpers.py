"""Which unmarked JavaScript or TypeScript files in a test folder are helpers, not tests.

A file in a test folder names its subject by its own name (tested_by: got's `test/create.ts`
is a test, ava and mocha running a test folder's files), but vitest and jest run only files
marked `.test.`/`.spec.`, and a folder of such tests keeps its helpers beside them unmarked:
QA on egoist/tsup listed test/utils.ts (getTestName, run: the helpers every test calls) as
the tests of src/utils.ts, and placed it first for `tests for defaultOutExtension`. A file
that calls no test function (test, it, describe, suite) tests nothing, whatever its name.
"""

from __future__ import annotations

import re

from processors.path_roles import subject_name
from query_api.symbols.families import language_family

# a test runner's call opening a test or a group: `test('x', ...)`, `it.only(`, `describe(`,
# `Deno.test(`, `QUnit.test(`, tap's `t.test(`; not a RegExp's `.test(`
_TEST_CALL = re.compile(
    r"(?<![\w.$])(?:(?:Deno|QUnit|tap|t)\.)?(?:test|it|describe|suite|context)"
    r"(?:\.\w+)*\s*\("
)


def unmarked_js(path: str) -> bool:
    """Whether `path` is a JavaScript/TypeScript file whose name carries no test marker."""
    return language_family(path) == "js" and subject_name(path) is None


def calls_tests(body: str) -> bool:
    """Whether a file's text opens a test or a group of tests."""
    return _TEST_CALL.search(body) is not None
