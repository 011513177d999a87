"""The order of repocontext_related's tests (query_api/symbols/related.py): a package's own
tests before the other packages' fixtures that use it. On feathersjs/feathers, related of
packages/memory/src/index.ts listed packages/memory/test/index.test.ts ninth, after schema's,
authentication's and client's fixtures (they reference more of its names); koa's alike. An
index file was named for its folder, `src`, which no test is named for."""

from __future__ import annotations

from query_api.symbols.related import ranked_tests, subject_names


def test_a_packages_index_under_src_is_named_for_the_package() -> None:
    found = {
        "packages/schema/test/fixture.ts": ["<file>", "MessageService", "ServiceTypes.users"],
        "packages/authentication-local/test/fixture.ts": ["ServiceTypes.users", "app"],
        "packages/client/test/fixture.ts": ["TodoService"],
        "packages/memory/test/index.test.ts": ["<file>"],
    }
    names = subject_names("packages/memory/src/index.ts", [])
    assert (
        ranked_tests(found, names, "packages/memory/src/index.ts")[0]
        == "packages/memory/test/index.test.ts"
    )
    koa = {"packages/koa/test/app.fixture.ts": ["app"], "packages/koa/test/index.test.ts": ["x"]}
    koa_names = subject_names("packages/koa/src/index.ts", [])
    assert (
        ranked_tests(koa, koa_names, "packages/koa/src/index.ts")[0]
        == "packages/koa/test/index.test.ts"
    )


def test_an_index_elsewhere_is_still_named_for_its_folder() -> None:
    assert subject_names("lib/router/index.js", []) == frozenset({"router"})
    assert subject_names("src/index.ts", []) == frozenset({"src"})


def test_a_files_own_packages_tests_come_before_another_packages_of_its_name() -> None:
    """packages/schema/test/hooks.test.ts (schema's hooks, calling feathers' createContext)
    came before feathers' own test/hooks/*.test.ts for packages/feathers/src/hooks.ts."""
    found = {
        "packages/schema/test/hooks.test.ts": ["<file>"],
        "packages/feathers/test/hooks/after.test.ts": ["<file>"],
        "packages/feathers/test/hooks/hooks.test.ts": ["<file>"],
    }
    subject = "packages/feathers/src/hooks.ts"
    assert ranked_tests(found, subject_names(subject, []), subject) == [
        "packages/feathers/test/hooks/hooks.test.ts",
        "packages/feathers/test/hooks/after.test.ts",
        "packages/schema/test/hooks.test.ts",
    ]
