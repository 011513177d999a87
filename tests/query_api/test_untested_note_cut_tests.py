"""`tests for X` says no test names X only when none does: a test file indexed only in part
(its body past the bound is unread) that declares a test named for X tests X. QA on
go-playground/validator: `tests for ValidateMap` said "no test file names or calls
ValidateMap" while validator_test.go (14,000 lines, indexed to line 2,239) declares
TestValidateMapWithCrossFieldValidators and TestValidate_ValidateMapCtx further down."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from schemas.events import MAX_BODY_CHARS
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

_FILLER = "".join(
    f"func TestFiller{i}(t *testing.T) {{\n\tif check({i}) {{\n\t\tt.Fail()\n\t}}\n}}\n\n"
    for i in range(MAX_BODY_CHARS // 50)
)
FILES = {
    "validator.go": (
        "package validator\n\n// ValidateMap validates a map against rules.\n"
        "func ValidateMap(data map[string]any) error { return nil }\n\n"
        'func IsCron(s string) bool { return s != "" }\n\nfunc check(i int) bool { return false }\n'
    ),
    "validator_test.go": (
        'package validator\n\nimport "testing"\n\n'
        + _FILLER
        + "func TestValidateMapWithRules(t *testing.T) {\n\t_ = ValidateMap(nil)\n}\n"
    ),
}


async def test_a_cut_test_file_declaring_a_test_named_for_x_tests_x(tmp_path: Path) -> None:
    assert len(FILES["validator_test.go"]) > MAX_BODY_CHARS
    async with indexed_app(tmp_path, FILES) as app:
        mapped = await app.service.search(
            t.SearchArgs(repoId="repo", query="tests for ValidateMap")
        )
        cron = await app.service.search(t.SearchArgs(repoId="repo", query="tests for IsCron"))
    assert mapped.note is None or "no test file" not in mapped.note, mapped.note
    # no declaration names IsCron: the note stays
    assert cron.note is not None and "no test file names or calls IsCron" in cron.note
