"""A file declaring the name a users query asks about inside a function (a closure the
file's symbols leave out) points at its uses, not at that declaration
(query_api/retrieval/use_sites.py). QA on unjs/unstorage: `what calls getMount` pointed
src/storage.ts at `const getMount = (key: string) => {` (line 44, inside createStorage),
not at `const { relativeKey, driver } = getMount(key);` in its methods."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.use_sites import at_use_sites
from tests.query_api.located import located_hits

STORAGE = "\n".join(
    [
        "export function createStorage(base: string) {",  # 1
        "  const mounts: Record<string, string> = {};",  # 2
        "  const getMount = (key: string) => {",  # 3
        "    return mounts[key] || base;",  # 4
        "  };",  # 5
        "",
        "  return {",  # 7
        "    hasItem(key: string) {",  # 8
        "      const driver = getMount(key);",  # 9
        "      return Boolean(driver);",  # 10
        "    },",  # 11
        "  };",  # 12
        "}",  # 13
        "",
    ]
)
PYTHON = "\n".join(
    [
        "def make_app(config):",  # 1
        "    def get_mount(key):",  # 2
        "        return config[key]",  # 3
        "",
        "    return get_mount('a')",  # 5
        "",
    ]
)


def test_a_closure_declaring_the_name_is_no_use_of_it(tmp_path: Path) -> None:
    [hit] = located_hits(tmp_path, {"src/storage.ts": STORAGE}, "what calls getMount", at_use_sites)
    assert hit.snippet == "9: const driver = getMount(key);", hit


def test_a_nested_python_function_is_no_use_of_it(tmp_path: Path) -> None:
    [hit] = located_hits(tmp_path, {"app.py": PYTHON}, "who calls get_mount", at_use_sites)
    assert hit.snippet == "5: return get_mount('a')", hit
