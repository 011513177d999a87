"""A JS/TS helper kept beside the tests (unmarked, calling no test function: a Playwright
folder's e2e/utils.ts) tests nothing, so no file is placed above it as its subject: QA on
react-hook-form/react-hook-form, `where is the playwright config` placed src/types/utils.ts
ninth, `tested-by:e2e/utils.ts`, a types file the helper neither imports nor tests. Related's
tests already left such helpers out (query_api/symbols/js_test_helpers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

HELPER = (
    "import { expect, type Locator } from '@playwright/test';\n\n"
    "// the playwright locator types the text at the end of the field\n"
    "export async function typeText(locator: Locator, text: string) {\n"
    "  await locator.press('End');\n"
    "  await locator.pressSequentially(text);\n"
    "  await expect(locator).toBeVisible();\n"
    "}\n"
)
SPEC = (
    "import { test } from '@playwright/test';\n"
    "import { typeText } from './utils';\n\n"
    "test('form', async ({ page }) => {\n"
    "  await typeText(page.locator('#name'), 'bill');\n"
    "});\n"
)
FILES = {
    "e2e/utils.ts": HELPER,
    "e2e/form.spec.ts": SPEC,
    "src/types/utils.ts": "export type Primitive = string | number | boolean;\n",
    "src/form.ts": "export const form = () => ({ name: 'form' });\n",
}


async def test_no_subject_is_placed_above_a_test_folders_helper(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        query = "playwright locator types the text at the end of the field"
        found = await app.service.search(t.SearchArgs(repoId="repo", query=query))
    paths = [hit.entry.path for hit in found.hits]
    assert "e2e/utils.ts" in paths, paths
    placed = [hit.entry.path for hit in found.hits if "tested-by:e2e/utils.ts" in hit.reasons]
    assert placed == [], placed
