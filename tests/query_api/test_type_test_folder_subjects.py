"""A type test in a folder named as a qualified test folder (pinia's packages/pinia/test-dts/
storeToRefs.test-d.ts) tests the module of its name under the folders above that one. QA on
vuejs/pinia: the type tests were the tests of no file (their home was test-dts/ itself), so
`type tests for storeToRefs` ranked storeToRefs.test-d.ts below the spec and related listed
no tests for it (tested_by._home_of)."""

from __future__ import annotations

from query_api.symbols.tested_by import names_subject, subject_of_test

SUBJECT = "packages/pinia/src/storeToRefs.ts"
TYPE_TEST = "packages/pinia/test-dts/storeToRefs.test-d.ts"


def nearest(test: str, indexed: list[str]) -> str | None:
    return subject_of_test(test, lambda name: [p for p in indexed if f"/{p}".endswith(f"/{name}")])


def test_a_type_test_in_a_qualified_test_folder_tests_its_module() -> None:
    assert names_subject(TYPE_TEST, SUBJECT) is not None
    assert nearest(TYPE_TEST, [SUBJECT, "packages/testing/src/storeToRefs.ts"]) == SUBJECT
    assert nearest("dts-test/defineComponent.test-d.ts", ["src/defineComponent.ts"]) == (
        "src/defineComponent.ts"
    )


def test_other_files_there_are_read_as_before() -> None:
    # a helper declaring the type tests' assertions names no module
    assert nearest("packages/pinia/test-dts/index.d.ts", ["packages/pinia/src/index.ts"]) is None
    # a marked test beside its code still tests a file of its own folder
    assert nearest("src/store.test-d.ts", ["src/store.ts", "lib/store.ts"]) == "src/store.ts"
