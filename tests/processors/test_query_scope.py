"""The scope a change request opens with, and which files lie inside it."""

from __future__ import annotations

import pytest

from processors.query_scope import in_scope, query_scopes


@pytest.mark.parametrize(
    ("query", "scopes"),
    [
        ("fix(complete): name the function", (("complete",),)),
        ("feat(runtime-core)!: warn on overrides", (("runtime-core",),)),
        ("🐛 fix(cache): self-heal", (("cache",),)),
        ("plugin/cache: preserve AD", (("plugin", "cache"),)),
        ("core/dns, plugin/tls: manage certificates", (("core", "dns"), ("plugin", "tls"))),
        ("[jsx] keep the key", (("jsx",),)),
        ("middleware: fix ReadFrom", (("middleware",),)),
        ("fix: no scope here", ()),
        ("Note: the lead-in is no scope", ()),
        ("Add support of pathlib", ()),
        ("fix(a,b,c,d,e): at most four", (("a",), ("b",), ("c",), ("d",))),
    ],
)  # fmt: skip
def test_scopes_a_query_opens_with(query: str, scopes: tuple[tuple[str, ...], ...]) -> None:
    assert query_scopes(query) == scopes


@pytest.mark.parametrize(
    ("query", "path", "inside"),
    [
        ("fix(complete): x", "clap_complete/src/aot/shells/bash.rs", True),
        ("fix(complete): x", "clap_builder/src/builder/command.rs", False),
        ("fix(ssr): x", "packages/compiler-ssr/src/index.ts", True),
        ("fix(context): x", "context.go", True),
        ("ignore/types: add", "crates/ignore/src/default_types.rs", True),
        ("ignore/types: add", "crates/ignore/src/walk.rs", False),
        ("plugin/cache: x", "plugin/cache/handler.go", True),
        ("[@xstate/solid] x", "packages/xstate-solid/src/createImmutable.ts", True),
        ("[@xstate/solid] x", "packages/xstate-store-solid/src/index.ts", False),
        ("[@xstate/solid] x", "packages/core/src/solid.ts", False),
        ("[@xstate/store] x", "packages/xstate-store/src/store.ts", True),
        ("[@xstate/store] x", "packages/xstate-store-react/src/index.ts", False),
        ("[xstate/store] x", "packages/xstate-store/src/atom.ts", True),
        ("[xstate/store] x", "packages/xstate-store-preact/src/index.ts", False),
        ("fix(@vue/runtime-core): x", "packages/runtime-core/src/apiWatch.ts", True),
        ("fix(@angular/core): x", "packages/core/src/render.ts", True),
        ("fix(@angular/core): x", "packages/common/src/core.ts", False),
        ("fix(@babel/core/config): x", "packages/babel-core/src/config/files.ts", True),
        ("fix(@babel/core/config): x", "packages/babel-core/src/parse.ts", False),
        ("plugin/cache: x", "plugin/file/cache_test_helper.go", False),
        ("no scope at all", "cache/handler.go", False),
        ("fix(custom-element): x", "packages/runtime-dom/src/apiCustomElement.ts", True),
        ("fix(custom-element): x", "packages/runtime-dom/src/customElementHelpers.ts", False),
        ("fix(transition): x", "packages/runtime-core/src/components/BaseTransition.ts", True),
        ("fix(transition): x", "packages/runtime-core/src/components/Transitions.ts", False),
        ("fix(runtime-core): x", "packages/runtime-core/src/vnode.ts", True),
    ],
)  # fmt: skip
def test_files_inside_a_scope(query: str, path: str, inside: bool) -> None:
    assert in_scope(path, query_scopes(query)) is inside
