"""`which jest config is used`: a question asking which of a tool's config files is in use
names the file as `where is the jest config` does. QA on react-hook-form/react-hook-form
matched no form and ranked scripts/rollup/createRollupConfig.js (a comment: `used by`) first
and scripts/jest/jest.config.js third; `where is the jest config` named no file either, the
name of jest.config.js up to its first dot being `jest` (streams/stores/views/named_files.py
asked_file)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from streams.stores.views.named_files import asked_file
from tests.streams.symbol_records import views_holding

FILES = {
    "scripts/jest/jest.config.js": "module.exports = { testEnvironment: 'jsdom' };\n",
    "scripts/rollup/createRollupConfig.js": "// used by the build\nexport const config = {};\n",
    "tsconfig.json": '{ "compilerOptions": {} }\n',
    "app/tsconfig.json": '{ "compilerOptions": {} }\n',
    "src/form.ts": "export const form = () => 'config used';\n",
}


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("which jest config is used", ["scripts/jest/jest.config.js"]),
        ("where is the jest config", ["scripts/jest/jest.config.js"]),  # named no file either
        ("what jest config does the project use?", ["scripts/jest/jest.config.js"]),
        ("which tsconfig is used", ["tsconfig.json"]),
        ("which config is used", []),  # no tool named: a question about words
        ("which form is used", []),
    ],
)
def test_a_tools_config_in_use_is_the_file_named(
    tmp_path: Path, query: str, named: list[str]
) -> None:
    with views_holding(tmp_path, FILES) as store:
        assert store.read(partial(asked_file, repo_id="r", query=query)) == named
