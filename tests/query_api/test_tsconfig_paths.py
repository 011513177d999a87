"""tsconfig.json / jsconfig.json path aliases: TypeScript's mapping rules on config texts."""

from __future__ import annotations

from processors.symbols.languages.js_ts_tsconfig import PathAliases, load_aliases


def aliases(files: dict[str, str], config: str = "tsconfig.json") -> PathAliases | None:
    return load_aliases(config, files.get)


def test_an_exact_pattern_wins_then_the_longest_prefix_and_substitutions_keep_their_order() -> None:
    found = aliases(
        {
            "tsconfig.json": """{
              // JSONC: comments and trailing commas, as tsc accepts them
              "compilerOptions": {
                "baseUrl": ".",
                "paths": {
                  "@/*": ["./src/*", "./generated/*"],
                  "@/components/*": ["./ui/components/*"],
                  "config": ["./src/config/index.ts"], /* an exact pattern */
                },
              },
            }"""
        }
    )
    assert found is not None
    assert found.candidates("@/lib/money") == ["src/lib/money", "generated/lib/money"]
    assert found.candidates("@/components/Button") == ["ui/components/Button"]
    assert found.candidates("config") == ["src/config/index.ts"]
    # no pattern: baseUrl + the specifier (a package's name yields a path that names no file)
    assert found.candidates("react") == ["react"]


def test_paths_without_base_url_are_relative_to_the_config_that_declares_them() -> None:
    files = {
        "tsconfig.base.json": '{"compilerOptions": {"paths": {"~/*": ["./shared/*"]}}}',
        "apps/web/tsconfig.json": """{
            "extends": "../../tsconfig.base.json",
            "compilerOptions": {"strict": true}
        }""",
        "apps/api/tsconfig.json": """{
            "extends": ["../../tsconfig.base.json"],
            "compilerOptions": {"baseUrl": "./src"}
        }""",
    }
    web = aliases(files, "apps/web/tsconfig.json")
    assert web is not None and web.candidates("~/dates") == ["shared/dates"]
    assert web.candidates("react") == []  # no baseUrl: a package stays one
    # an inherited `paths` is relative to the extending config's baseUrl, as in tsc
    api = aliases(files, "apps/api/tsconfig.json")
    assert api is not None and api.candidates("~/dates") == ["apps/api/src/shared/dates"]
    assert api.candidates("db/client") == ["apps/api/src/db/client"]


def test_what_is_not_ours_to_read_is_skipped() -> None:
    files = {
        "tsconfig.json": """{
            "extends": "@tsconfig/strictest/tsconfig.json",
            "compilerOptions": {"paths": {"@/*": ["../outside/*", "./src/*"], "a*b*": ["./x"]}}
        }""",
        "broken/tsconfig.json": '{"compilerOptions": ',
        "list/tsconfig.json": "[1, 2]",
    }
    found = aliases(files)
    assert found is not None
    assert found.candidates("@/x") == ["src/x"]  # a substitution outside the repository: dropped
    assert found.candidates("a1b2") == []  # two `*`: not a pattern tsc accepts
    assert aliases(files, "broken/tsconfig.json") is None
    assert aliases(files, "list/tsconfig.json") is None
    assert aliases(files, "missing/tsconfig.json") is None
