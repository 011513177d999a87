"""`where is the vitest config`: Vitest reads vite.config.* where no vitest.config.* exists,
so that file is the vitest config asked for. QA on vuejs/pinia, whose vitest settings are the
`test:` block of vite.config.ts: the question named no file and ranked package.json's
`"dev": "vitest --coverage --ui"` first (streams/stores/views/named_files.py asked_file)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from streams.stores.views.named_files import asked_file
from tests.streams.symbol_records import views_holding

VITE_ONLY = {
    "vite.config.ts": "export default defineConfig({\n  test: { setupFiles: [] },\n})\n",
    "packages/app/vite.config.ts": "export default defineConfig({})\n",
    "package.json": '{ "scripts": { "dev": "vitest --coverage" } }\n',
    "src/index.ts": "export const vitest = 1\n",
}


def test_vite_config_is_the_vitest_config_where_no_vitest_config_exists(tmp_path: Path) -> None:
    with views_holding(tmp_path, VITE_ONLY) as store:
        asked = partial(asked_file, repo_id="r", query="where is the vitest config")
        assert store.read(asked) == ["vite.config.ts"]


def test_a_vitest_config_comes_before_vite_config(tmp_path: Path) -> None:
    files = {**VITE_ONLY, "vitest.config.mts": "export default defineConfig({})\n"}
    with views_holding(tmp_path, files) as store:
        asked = partial(asked_file, repo_id="r", query="where is the vitest config")
        assert store.read(asked) == ["vitest.config.mts"]


def test_other_tools_read_only_their_own_config(tmp_path: Path) -> None:
    with views_holding(tmp_path, VITE_ONLY) as store:
        asked = partial(asked_file, repo_id="r", query="where is the jest config")
        assert store.read(asked) == []
