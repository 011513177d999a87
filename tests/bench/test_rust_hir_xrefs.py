"""The Rust reference of `symbols_quality xrefs` reads rustc's HIR dump: which file declares
each item, and which file each resolved path is written in (a path written by a macro
expansion, whose span has another syntax context than #0, counts for no file)."""

from __future__ import annotations

import importlib.util
from collections import defaultdict
from pathlib import Path

# native/ holds standalone programs, not a package
_PROGRAM = Path(__file__).parent / "symbols_quality" / "native" / "rust_hir_xrefs.py"
_SPEC = importlib.util.spec_from_file_location("rust_hir_xrefs", _PROGRAM)
assert _SPEC is not None and _SPEC.loader is not None
rust_hir_xrefs = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(rust_hir_xrefs)

HIR = """\
DefId(0:5 ~ grep_regex[acef]::config::Config) => OwnerNodes {
    node: Item(
        Item {
            span: crates/regex/src/config.rs:12:1: 20:2 (#0),
        },
    ),
}
DefId(0:9 ~ grep_regex[acef]::matcher::{impl#0}::new) => OwnerNodes {
                        span: crates/regex/src/matcher.rs:45:18: 45:24 (#0),
                        kind: Path(
                                    Path {
                                        span: crates/regex/src/matcher.rs:46:9: 46:15 (#0),
                                        res: Def(
                                            Struct,
                                            DefId(0:5 ~ grep_regex[acef]::config::Config),
                                        ),
                                    },
                                    Path {
                                        span: crates/regex/src/matcher.rs:47:9: 47:15 (#0),
                                        res: Def(
                                            Mod,
                                            DefId(0:3 ~ grep_regex[acef]::config),
                                        ),
                                    },
                                    Path {
                                        span: crates/regex/src/macros.rs:3:9: 3:15 (#7),
                                        res: Def(
                                            Variant,
                                            DefId(0:6 ~ grep_regex[acef]::config::Config::A),
                                        ),
                                    },
"""


def test_items_are_declared_where_their_span_is_and_paths_used_where_written() -> None:
    declared: dict[str, str] = {}
    uses: dict[str, set[str]] = defaultdict(set)
    rust_hir_xrefs.read(HIR, declared, uses)
    assert declared["grep_regex::config::Config"] == "crates/regex/src/config.rs"
    assert declared["grep_regex::matcher::{impl#0}::new"] == "crates/regex/src/matcher.rs"
    # the module path is no dependency; the macro-expanded variant counts for no file
    assert dict(uses) == {"crates/regex/src/matcher.rs": {"grep_regex::config::Config"}}
    # a variant is declared in its enum's file
    assert rust_hir_xrefs.declaring_file("grep_regex::config::Config::A", declared) == (
        "crates/regex/src/config.rs"
    )
