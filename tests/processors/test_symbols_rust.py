"""Rust use trees and paths as the extractor records them: one import per leaf (`use
crate::{a::X, b::Y}` was stored as the import `crate`), the names each leaf binds, and a
path written in code (`crate::flags::parse()`) as the reference's qualifier."""

from __future__ import annotations

from processors.symbols.extract import extract
from processors.symbols.grammars import GRAMMARS
from processors.symbols.languages.rust import relative_to_file, use_leaves


def _extract(
    body: str, path: str = "src/search.rs"
) -> tuple[list[str], set[tuple[str, str | None]]]:
    found = extract(body, "rust", path, GRAMMARS["rust"])
    return found.imports, {(name, qualified) for _owner, name, qualified in found.references}


def test_a_use_tree_is_one_import_per_leaf() -> None:
    assert use_leaves("crate::{a::X, b::{self, Y as Z}, c::*}") == [
        ("crate.a.X", "X"),
        ("crate.b", "b"),
        ("crate.b.Y", "Z"),
        ("crate.c.*", ""),
    ]
    assert use_leaves("::regex::{Regex, /* why */ bytes::{self as b}}") == [
        ("regex.Regex", "Regex"),
        ("regex.bytes", "b"),
    ]
    assert use_leaves("super::*") == [("super.*", "")]
    assert use_leaves("std::io::Write as _") == [("std.io.Write", "")]


def test_a_use_inside_an_inline_module_is_written_from_the_file() -> None:
    assert relative_to_file("super.*", ["tests"]) == "self.*"
    assert relative_to_file("super.super.x.Y", ["tests"]) == "super.x.Y"
    assert relative_to_file("self.helper", ["tests"]) == "self.tests.helper"
    assert relative_to_file("crate.x", ["tests"]) == "crate.x"


def test_each_leaf_is_an_import_and_binds_its_name() -> None:
    imports, refs = _extract(
        "use crate::{flags::{HiArgs, parse}, search::Worker as W};\n"
        "pub extern crate grep_printer as printer;\n"
        "fn run() { let a: HiArgs = parse(); W::new(a); }\n"
        "mod tests { use super::*; }\n"
    )
    assert imports == [
        "crate.flags.HiArgs",
        "crate.flags.parse",
        "crate.search.Worker as W",
        "grep_printer as printer",
        "self.*",
    ]
    assert {
        ("HiArgs", "crate.flags.HiArgs"),
        ("parse", "crate.flags.parse"),
        ("new", "crate.search.Worker.new"),
        ("Worker", "crate.search.Worker"),
    } <= refs


def test_a_path_written_in_code_qualifies_the_name_after_it() -> None:
    _imports, refs = _extract(
        "fn run() -> grep::printer::Stats {\n"
        "    crate::flags::parse();\n"
        "    grep::printer::StandardBuilder::new();\n"
        "    Self::Item::default()\n"
        "}\n"
    )
    assert ("Stats", "grep.printer.Stats") in refs
    assert ("parse", "crate.flags.parse") in refs
    assert ("new", "grep.printer.StandardBuilder.new") in refs


def test_a_path_inside_an_inline_module_is_written_from_the_file() -> None:
    # `super::helper()` in the file's `mod tests` calls the file's own `helper`, not one of
    # its parent module's
    _imports, refs = _extract(
        "fn helper() {}\n\nmod tests {\n    fn t() { super::helper(); self::local(); }\n}\n"
    )
    assert ("helper", "self.helper") in refs
    assert ("local", "self.tests.local") in refs


def test_a_value_through_a_path_is_a_reference_but_a_use_path_is_none() -> None:
    _imports, refs = _extract(
        "use crate::{a::X, b::{c::Y}};\n\n"
        "fn run(m: Mode) {\n    out.push_str(super::ENCODINGS);\n"
        "    match m {\n        Mode::Search(s) => {}\n        Mode::Files => {}\n    }\n}\n"
    )
    assert ("ENCODINGS", "super.ENCODINGS") in refs
    assert ("Search", "Mode.Search") in refs
    assert ("Files", "Mode.Files") in refs
    # a use list's inner paths are relative to the list: `a::X` there is no path `a.X`
    assert not {("X", "a.X"), ("Y", "b.c.Y"), ("Y", "c.Y")} & refs


IMPLS_FOR_UNNAMED_TYPES = """pub trait Go { fn go(&self); }
impl Go for bool { fn go(&self) {} }
impl<'a> Go for &'a str { fn go(&self) {} }
impl<T: Go> Go for &T { fn go(&self) {} }
impl Go for &mut Vec<u8> { fn go(&self) {} }
impl Go for () { fn go(&self) {} }
"""


def test_an_impl_for_a_primitive_or_a_reference_is_a_scope_named_by_its_type() -> None:
    """`impl Go for bool`, `for &'a str`, `for &T` put their methods under the type they
    name (axum's impls for `&str` and tuples stood at file level, `go`, `go#2`, ...)."""
    found = extract(IMPLS_FOR_UNNAMED_TYPES, "rust", "src/go.rs", GRAMMARS["rust"])
    names = [str(s["fq_name"]) for s in found.symbols]
    assert {"bool.go", "str.go", "T.go", "Vec.go"} <= set(names)


IMPLS_FOR_STRUCTURAL_TYPES = """pub trait Go { fn go(&self); const N: usize; }
impl Go for () { fn go(&self) {} const N: usize = 0; }
impl<A, B> Go for (A, B) { fn go(&self) {} const N: usize = 2; }
impl<A> Go for &(A,) { fn go(&self) {} const N: usize = 1; }
impl Go for &() { fn go(&self) {} const N: usize = 0; }
impl<T> Go for [T] { fn go(&self) {} const N: usize = 0; }
impl<T, const M: usize> Go for [T; M] { fn go(&self) {} const N: usize = M; }
"""


def test_an_impl_for_the_unit_type_a_tuple_an_array_or_a_slice_is_a_scope_too() -> None:
    """`impl Go for ()`, `for (A, B)`, `for [T]`, `for [T; M]` name no type, and their
    methods stood at file level (`go`, `go#2`, `N#3`, ...: nothing said whose they were);
    they are scoped as rustdoc files such impls, under the primitive they implement for:
    `unit`, `tuple`, `slice`, `array`, as `&str` is scoped by `str`."""
    found = extract(IMPLS_FOR_STRUCTURAL_TYPES, "rust", "src/go.rs", GRAMMARS["rust"])
    names = [str(s["fq_name"]) for s in found.symbols]
    file_level = [n for n in names if "." not in n and n != "Go"]
    assert file_level == [], file_level
    assert {"unit.go", "unit.N", "tuple.go", "tuple.N", "slice.go", "array.N"} <= {
        n.split("(")[0].split("#")[0] for n in names
    }, names


IMPLS_FOR_FN_POINTER_NEVER_AND_DYN = """pub trait Go { fn go(&self); }
impl Go for fn(u8) -> u8 { fn go(&self) {} }
impl Go for extern "C" fn() { fn go(&self) {} }
impl<T> Go for *const T { fn go(&self) {} }
impl Go for ! { fn go(&self) {} }
impl dyn Any + Send { pub fn is_go(&self) -> bool { true } }
impl<'a> Go for &'a dyn Error { fn go(&self) {} }
impl dyn std::error::Error { pub fn source_go(&self) {} }
"""


def test_an_impl_for_a_fn_pointer_a_raw_pointer_never_or_dyn_trait_is_a_scope() -> None:
    """`impl Go for fn(u8)`, `for *const T` and `for !` name no type either, and `impl dyn
    Any` names a trait object: their methods stood at file level. Scoped as rustdoc files
    them: the primitives `fn`, `pointer` and `never`, a trait object by its trait."""
    found = extract(IMPLS_FOR_FN_POINTER_NEVER_AND_DYN, "rust", "src/go.rs", GRAMMARS["rust"])
    names = [str(s["fq_name"]) for s in found.symbols]
    file_level = [n for n in names if "." not in n and n != "Go"]
    assert file_level == [], file_level
    assert {"fn.go", "pointer.go", "never.go", "Any.is_go", "Error.go", "Error.source_go"} <= {
        n.split("(")[0].split("#")[0] for n in names
    }, names


IMPLS_FOR_GENERIC_TYPES_BY_PATH = """pub trait Go { fn go(&self); }
impl<'a, 'b: 'a> Go for fmt::DebugMap<'a, 'b> { fn go(&self) {} }
impl<T> Go for std::boxed::Box<T> { fn go(&self) {} }
impl<'a, T> Go for &'a mut alloc::vec::Vec<T> { fn go(&self) {} }
impl dyn core::ops::Fn<u8> { pub fn is_go(&self) {} }
"""


def test_an_impl_for_a_generic_type_written_by_its_path_is_a_scope_named_by_it() -> None:
    """`impl Go for fmt::DebugMap<'a, 'b>` and `for std::boxed::Box<T>` (log's kv/source.rs
    and lib.rs) put their methods at file level (`go(&self)#2`, ...) while `for fmt::Debug`
    and `for Box<T>` were scoped: a generic type written by its path is its last segment."""
    found = extract(IMPLS_FOR_GENERIC_TYPES_BY_PATH, "rust", "src/go.rs", GRAMMARS["rust"])
    names = [str(s["fq_name"]) for s in found.symbols]
    file_level = [n for n in names if "." not in n and n != "Go"]
    assert file_level == [], file_level
    assert {"DebugMap.go", "Box.go", "Vec.go", "Fn.is_go"} <= {
        n.split("(")[0].split("#")[0] for n in names
    }, names


def test_the_type_a_path_starts_from_is_referenced() -> None:
    _imports, refs = _extract(
        "fn f() { Platform::convert(x); let m = Mode::Search; crate::cfg::Config::new();"
        " Self::helper(); config::load(); }\n"
    )
    assert {("Platform", None), ("Mode", None), ("Config", "crate.cfg.Config")} <= refs
    # `Self` is no declaration's name; a lowercase path segment is a module, not a type
    assert not {name for name, _ in refs} & {"Self", "config"}


def test_a_macro_called_by_its_path_is_a_reference() -> None:
    """`anyhow::bail!(...)` calls the crate's exported `bail!` as `bail!(...)` does after a
    `use anyhow::bail`: both are uses of it."""
    _imports, refs = _extract(
        "fn run() -> Result<()> {\n"
        '    anyhow::bail!("no");\n'
        '    crate::macros::ensure!(ok, "no");\n'
        '    log::info!("x");\n'
        "}\n"
    )
    assert ("bail!", "anyhow.bail") in refs
    assert ("ensure!", "crate.macros.ensure") in refs
    assert ("info!", "log.info") in refs


def test_a_macro_is_named_with_its_bang_and_a_method_of_its_name_is_no_use_of_it() -> None:
    """rust-lang/log's lib.rs calls `(**self).log(record)`, a method of the trait `Log`: a
    reference named `log`, as src/macros.rs's `macro_rules! log` was, so the method's callers
    were taken for the macro's. A macro is invoked only as `log!(...)` or `path::log!(...)`."""
    found = extract(
        "macro_rules! log { () => {}; }\n"
        "fn run(l: &L) { l.log(r); self.log(r); logger().log(r); log!(); }\n"
        "fn by_path() { crate::m::log!(); }\n",
        "rust",
        "src/lib.rs",
        GRAMMARS["rust"],
    )
    assert [(s["fq_name"], s["name"]) for s in found.symbols if s["kind"] == "Other"] == [
        ("log", "log!")
    ]
    refs = {(name, qualified) for _owner, name, qualified in found.references}
    assert ("log!", None) in refs and ("log!", "crate.m.log") in refs
    # the method calls stay references of a method `log`, never of the macro `log!`
    assert {name for name, _qualified in refs} == {"L", "log", "log!", "logger"}


def test_a_macro_imported_by_a_use_is_qualified_by_it() -> None:
    _imports, refs = _extract('use anyhow::bail;\nfn f() { bail!("x"); }\n')
    assert ("bail!", "anyhow.bail") in refs
    assert ("bail", "anyhow.bail") not in refs  # a fn `bail` is not what `bail!` calls


def test_a_module_declared_without_a_body_is_an_import_of_its_file() -> None:
    """rust-lang/log's lib.rs declares `mod macros;`, `mod serde;`, `pub mod __private_api;`:
    each loads a file of the crate, which lib.rs uses as much as what a `use` names, yet only
    its `use` declarations were imports. An inline `mod tests { ... }` loads no file."""
    imports, refs = _extract(
        "#[macro_use]\nmod macros;\npub mod kv;\n#[cfg(test)]\nmod tests {\n    mod helpers;\n}\n"
        "mod inline { fn f() {} }\n",
        "src/lib.rs",
    )
    assert imports == ["self.kv", "self.macros", "self.tests.helpers"]
    assert not {name for name, _qualified in refs} & {"kv", "macros"}  # it binds no name
