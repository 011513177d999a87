"""A definition query may say where to look (`where is getKeys defined in s3.ts`, `where is
the watch method of the fs driver`) or leave out `defined` when it names the kind (`where is
the Driver interface`): the name is still the one asked about, and each hit declaring it
points at that declaration (definition_sites.py). QA on unjs/unstorage: `where is the watch
method of the fs driver` pointed src/drivers/fs.ts at `watchOptions?: ChokidarOptions;`
(line 27), not at the driver's `async watch(callback)`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.definition_sites import asked_kinds, at_definitions, defined_name
from tests.query_api.located import located_hits

FS = "\n".join(
    [
        "export interface FSStorageOptions {",  # 1
        "  base?: string;",  # 2
        "  watchOptions?: object;",  # 3
        "}",  # 4
        "",
        "const driver = (opts: FSStorageOptions) => {",  # 6
        "  return {",  # 7
        "    name: 'fs',",  # 8
        "    async watch(callback: () => void) {",  # 9
        "      callback();",  # 10
        "    },",  # 11
        "  };",  # 12
        "};",  # 13
        "",
        "export default driver;",  # 15
        "",
    ]
)


def test_a_definition_query_may_say_where_to_look() -> None:
    assert defined_name("where is getKeys defined in s3.ts") == "getKeys"
    assert defined_name("where is the watch method of the fs driver") == "watch"
    assert defined_name("where is the Driver interface") == "Driver"
    assert asked_kinds("where is the Driver interface") == frozenset({"Interface"})
    # the kind of the place looked in is not the kind asked for
    assert asked_kinds("where is getItem defined in the Storage class") == frozenset()
    assert defined_name("where is the config class used") is None
    assert defined_name("where is the retry logic") is None


def test_the_hit_points_at_the_declaration_in_the_place_named(tmp_path: Path) -> None:
    query = "where is the watch method of the fs driver"
    [hit] = located_hits(tmp_path, {"src/drivers/fs.ts": FS}, query, at_definitions)
    assert hit.startLine == 9, hit
    assert hit.snippet is not None and hit.snippet.startswith("9: async watch("), hit
