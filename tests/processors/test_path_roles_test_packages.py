"""A monorepo package named for testing (`packages/testing/src/`, pinia's @pinia/testing)
ships code: its sources are source, its specs are tests of them (path_roles.role_of,
home_of_test; query_api.symbols.tested_by)."""

from __future__ import annotations

from processors.path_roles import Role, home_of_test, role_of
from query_api.symbols.tested_by import subject_of_test


def test_package_named_testing_holds_source() -> None:
    assert role_of("packages/testing/src/testing.ts") == Role.SOURCE
    assert role_of("packages/testing/src/restoreGetters.ts") == Role.SOURCE


def test_its_specs_stay_tests_of_its_files() -> None:
    spec = "packages/testing/src/testing.spec.ts"
    assert role_of(spec) == Role.TEST
    assert home_of_test(spec) == (("packages", "testing", "src"), ())
    files = {"testing.ts": ["packages/testing/src/testing.ts"]}
    assert subject_of_test(spec, lambda name: files.get(name, [])) == files["testing.ts"][0]


def test_test_folders_elsewhere_are_unchanged() -> None:
    assert role_of("tests/src/helpers.ts") == Role.TEST
    assert role_of("packages/core/testing/helpers.ts") == Role.TEST
    assert role_of("packages/testing/fixtures/app.ts") == Role.TEST
    assert role_of("packages/runtime-test/src/index.ts") == Role.TEST
    assert home_of_test("packages/pinia/__tests__/store.spec.ts") == (
        ("packages", "pinia"),
        (),
    )
