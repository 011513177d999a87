"""A test in a test project of its own (kysely's test/node/src/, beside test/deno/ and
test/bun/) names its subject by its name, its project's folders (node/src) being no folders of
the code. QA on kysely-org/kysely: `tests for ParseJSONResultsPlugin` put
test/node/src/parse-json-results-plugin.test.ts below the plugin with no `tests:` reason, and
related of src/plugin/parse-json-results/parse-json-results-plugin.ts listed it only as a file
importing the plugin: the folders below the test folder (node, src) had to end the subject's."""

from __future__ import annotations

from query_api.retrieval.tests_first import tests_first as with_tests_first
from query_api.symbols.tested_by import names_subject, subject_of_test
from schemas import tools as t

PLUGIN = "src/plugin/parse-json-results/parse-json-results-plugin.ts"
PLUGIN_TEST = "test/node/src/parse-json-results-plugin.test.ts"


def nearest(test: str, indexed: list[str]) -> str | None:
    return subject_of_test(test, lambda name: [p for p in indexed if f"/{p}".endswith(f"/{name}")])


def hit(path: str, score: float) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(score=score, entry=entry, reasons=[])


def test_a_test_project_s_own_folders_are_no_folders_of_its_subject() -> None:
    assert names_subject(PLUGIN_TEST, PLUGIN) is not None
    assert nearest(PLUGIN_TEST, [PLUGIN]) == PLUGIN
    assert nearest("test/node/src/log-once.test.ts", ["src/util/log-once.ts"]) == (
        "src/util/log-once.ts"
    )
    # and the folders down to a test folder of its own (kysely's test/typings/test-d/)
    typed = "test/typings/test-d/delete-query-builder.test-d.ts"
    builder = "src/query-builder/delete-query-builder.ts"
    assert nearest(typed, [builder]) == builder
    # the folders below the project's source folder still mirror the code
    assert nearest("test/node/src/util/log.test.ts", ["src/util/log.ts", "src/log.ts"]) == (
        "src/util/log.ts"
    )
    assert nearest("test/node/src/util/log.test.ts", ["src/log.ts"]) is None
    # an unmarked file in a project below the test folder is that project's code (a
    # fixture), named as before by its name and all its folders
    assert nearest("test/fixtures/app/src/utils.ts", ["src/utils.ts"]) is None
    # a spec in a folder of test data is a fixture the tests run (mocha's fixtures)
    fixture = "test/integration/fixtures/runner.spec.js"
    assert nearest(fixture, ["lib/runner.js"]) is None
    assert nearest("test/fixtures/node/src/app.test.ts", ["src/app.ts"]) is None
    # a tail opening with src mirrors the code whole, as before
    assert nearest("test/src/foo/bar.test.ts", ["lib/foo/bar.ts"]) is None
    assert nearest("test/src/foo/bar.test.ts", ["src/foo/bar.ts"]) == "src/foo/bar.ts"


def test_tests_for_a_file_put_its_test_project_test_above_it() -> None:
    hits = [hit(PLUGIN, 1.0), hit(PLUGIN_TEST, 0.5), hit("src/index.ts", 0.4)]
    tests_of = {PLUGIN: [PLUGIN_TEST]}.get

    def named(path: str) -> list[str]:
        return [p for p in tests_of(path) or [] if names_subject(p, path) is not None]

    out = with_tests_first(hits, 10, named, lambda path: hit(path, 0.0))
    assert [h.entry.path for h in out] == [PLUGIN_TEST, PLUGIN, "src/index.ts"]
    assert out[0].reasons == [f"tests:{PLUGIN}"]
