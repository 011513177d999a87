"""Constructs the symbol quality benchmark (tests/bench/symbols_quality) found extracted wrong,
each pinned by a small fixture (tests/processors/fixtures/symbols/*.fixture, whose goldens
test_symbols.py checks in full) and asserted here by what was wrong."""

from __future__ import annotations

from pathlib import Path

from processors.symbols.keywords import KEYWORDS
from processors.symbols.processor import symbols_of
from schemas.symbols import SymbolDef
from tests.processors.test_symbols import FIXTURES, upsert


def symbols(name: str, path: str | None = None) -> list[SymbolDef]:
    body = (FIXTURES / f"{name}.fixture").read_text(encoding="utf-8")
    records = symbols_of(upsert(path or name, body))
    assert records is not None
    return records[0].symbols


def test_generic_call_signatures_in_an_interface_leave_the_rest_of_the_file_intact() -> None:
    # overloaded generic call signatures, one a line, made the interface an ERROR: the class
    # body after it came out as methods named `const`, `if`, `return`, its real exports lost
    found = {s.fq_name: s for s in symbols("factory.ts")}
    assert {"Factory", "createFactory", "createMiddleware"} <= found.keys()
    assert found["Factory"].kind == "Type" and found["createFactory"].kind == "Function"
    assert not [s.name for s in found.values() if s.name in KEYWORDS["typescript"]]


def test_the_same_signatures_in_a_tsx_file(tmp_path: Path) -> None:
    found = {s.fq_name for s in symbols("factory.ts", "src/factory.tsx")}
    assert {"Factory", "createFactory", "createMiddleware"} <= found
    assert not found & KEYWORDS["tsx"]


def test_every_exported_top_level_declaration_of_a_module_is_a_symbol() -> None:
    found = {s.fq_name: s.kind for s in symbols("exports.ts")}
    functions = {"plain", "asyncFn", "gen", "arrow", "genericArrow", "asyncArrow", "fnExpr"}
    assert {found.get(name) for name in functions | {"namedFnExpr", "typed"}} == {"Function"}
    assert {"over(string)", "over(number)", "over(any)"} <= found.keys()  # overloads distinct
    assert found["Klass"] == "Type" and found["Abstract"] == "Type"
    for name in ("letVar", "varVar", "declaredConst", "NS.inner", "wrapped"):
        assert found.get(name) == "Field", name


def test_commonjs_members_assigned_a_function_are_declarations() -> None:
    found = {s.fq_name: s.kind for s in symbols("commonjs.js")}
    assert found["res.status"] == found["res.send"] == found["exports.json"] == "Method"
    assert found["init"] == found["accepts"] == found["normalize"] == "Function"
    assert "inner" not in found  # inside a function: local


def test_reserved_words_stay_member_names_where_the_parse_is_sound() -> None:
    found = {s.fq_name for s in symbols("keywords.ts")}
    assert {"JSONSchema.if", "JSONSchema.default", "Deferred.catch", "Deferred.return"} <= found


def test_every_name_of_a_declaration_with_several_declarators_is_a_symbol() -> None:
    # one node declaring several names kept only one of them (express's test files,
    # `var express = require('../'), request = require('supertest')`; Java's `int low, high`)
    found = {s.fq_name: s.kind for s in symbols("declarators.js")}
    assert found == {
        "express": "Field",
        "request": "Field",
        "assert": "Field",
        "first": "Field",
        "second": "Function",
    }
    java = {s.fq_name for s in symbols("Declarators.java")}
    assert {"shop.Limits.low", "shop.Limits.high", "shop.Limits.A", "shop.Limits.B"} <= java


def test_go_grouped_vars_and_fields_sharing_a_type_are_symbols_and_blank_is_not() -> None:
    # gin's `var ( JSON = jsonBinding{} ... )` (a var_spec_list) yielded nothing, echo's
    # `name, value string` one field, and `var _ http.ResponseWriter = ...` a symbol `_`
    found = {s.fq_name for s in symbols("grouped.go")}
    assert found == {
        "binding.JSON",
        "binding.XML",
        "binding.header",
        "binding.header.name",
        "binding.header.value",
    }


def test_java_annotation_elements_and_record_components_are_symbols() -> None:
    # gson's @SerializedName(value, alternate) and Java 17 records had no members
    found = {s.fq_name: s.kind for s in symbols("Records.java")}
    package = "com.google.gson.annotations"
    assert found[f"{package}.SerializedName.value"] == "Method"
    assert found[f"{package}.SerializedName.alternate"] == "Method"
    assert found[f"{package}.Point.x"] == found[f"{package}.Point.y"] == "Field"


def test_c_pointer_array_and_function_pointer_typedefs_are_symbols() -> None:
    # miniz's `typedef unsigned char mz_validate_uint64[...]`, callbacks' `typedef void (*f)()`
    found = {s.fq_name for s in symbols("typedefs.c")}
    assert found == {"plain_t", "callback_t", "node_p", "validate_t"}


def test_c_file_level_declarations_inside_guards_and_extern_c_blocks_are_symbols() -> None:
    # jq's headers: the prototypes and globals inside `#ifndef JV_H` / `extern "C" {` were
    # lost (the query matched declarations only directly under the file), as were arrays,
    # pointers and function pointers at file level (C function recall vs ctags 0.48)
    found = {s.fq_name: s.kind for s in symbols("guards.h")}
    for name in ("jv_array", "jv_string_value", "jv_keys", "jv_win32_open", "jv_posix_open"):
        assert found.get(name) == "Function", name
    for name in ("DPD2BIN", "month_name", "real_fread", "default_colors", "depth", "width"):
        assert found.get(name) == "Field", name
    assert found["bytecode.subfunctions"] == found["bytecode.nomem_handler"] == "Field"
    assert not {n for n in found if n.startswith(("local", "console", "jv_dump."))}


def test_kotlin_constructor_properties_named_companions_and_type_aliases_are_symbols() -> None:
    # okio's `class FileMetadata(val isRegularFile: Boolean, ...)`: properties declared in the
    # primary constructor, `companion object Factory`, `typealias` were not symbols
    found = {s.fq_name: s.kind for s in symbols("Properties.kt")}
    owner = "okio.FileMetadata"
    assert found[f"{owner}.isRegularFile"] == found[f"{owner}.size"] == "Property"
    assert f"{owner}.extras" not in found  # a plain parameter
    assert found[f"{owner}.Factory"] == "Type"
    assert found[f"{owner}.Factory.DEFAULT_SIZE"] == "Property"
    assert found["okio.ArrayIndexOutOfBoundsException"] == found["okio.PointerU8"] == "Other"


def test_kotlin_modifiers_tree_sitter_reads_as_names_leave_declarations_intact() -> None:
    # okio: `@OptIn(...)` then `actual class CRC32` on the next line was an annotated
    # expression (the class lost, its methods top-level functions), so was `annotation class`
    # after `@Retention(SOURCE)`; `class ByteString` then `internal actual constructor(` made
    # the rest of the file one ERROR (about 50 declarations each in okio's two ByteString.kt)
    found = {s.fq_name: s.kind for s in symbols("Modifiers.kt")}
    assert found["okio.CRC32"] == "Type" and found["okio.CRC32.update"] == "Method"
    assert found["okio.ExperimentalFileSystem"] == "Type" and found["okio.Mode"] == "Enum"
    assert found["okio.ByteString"] == "Type" and found["okio.ByteString.size"] == "Method"
    assert found["okio.ByteString.data"] == "Property"


def test_an_unnamed_kotlin_companion_object_is_named_companion() -> None:
    # `companion object { ... }` is `Companion` in Kotlin (`import okio.ByteString.Companion.of`):
    # it was no symbol, so its members looked like the class's own
    found = {s.fq_name: s.kind for s in symbols("Modifiers.kt")}
    assert found["okio.ByteString.Companion"] == "Type"
    assert found["okio.ByteString.Companion.of"] == "Method"
    assert found["okio.ByteString.Companion.EMPTY"] == "Property"
    named = {s.fq_name for s in symbols("Properties.kt")}
    assert "okio.FileMetadata.Factory" in named and "okio.FileMetadata.Companion" not in named


def test_ruby_classes_and_modules_named_by_a_scope_are_named_by_their_last_constant() -> None:
    # sinatra's `class Sinatra::Base` was a symbol named `Sinatra.Base` (a name no lookup of
    # `Base` finds); it is `Base`, owned by `Sinatra`
    found = {s.fq_name: (s.name, s.kind) for s in symbols("scoped.rb")}
    assert found["Sinatra.Base"] == ("Base", "Type")
    assert found["Rackup.Handler"] == ("Handler", "Namespace")
    assert found["Rackup.Handler.Mock"] == ("Mock", "Type")
    assert found["TopLevel"] == ("TopLevel", "Type")
    assert found["Sinatra.Base.settings"] == ("settings", "Method")


def test_cpp_macros_operators_reference_members_and_globals() -> None:
    # fmt's headers: `FMT_BEGIN_NAMESPACE` alone on a line made the rest of the file one
    # ERROR (color.h's enumerators lost), `FMT_CONSTEXPR` before a constructor made its
    # member initializers methods, `class FMT_API file` lost the class; `operator<<` was
    # named `operator` and `operator->` `operator-`; reference members and globals were
    # not symbols
    found = {s.fq_name: s.kind for s in symbols("macros.hpp")}
    assert found["color"] == "Enum" and found["color.alice_blue"] == "Field"
    assert found["file"] == "Type" and found["file.fd_"] == "Field"
    assert found["basic_scan_arg.basic_scan_arg"] == "Method"
    assert found["basic_scan_arg.int_value_"] == "Field"  # not a method: an initializer
    assert found["basic_scan_arg.operator->"] == found["basic_scan_arg.operator<<"] == "Method"
    assert found["operator<<"] == "Function"
    assert found["basic_scan_arg.context_"] == "Field"
    assert found["max_packed_args"] == found["digits"] == "Field"
    assert not {name for name in found if "FMT_" in name}


def test_cpp_conversion_operators_are_symbols_and_friends_are_not_members() -> None:
    # fmt's `operator bool() const`, `operator fmt::string_view()` were no symbols (about 25
    # in the benchmark's sample); `friend auto fg(...) -> text_style;` came out as a method
    # of the class that befriends it, a function of the namespace it is not
    found = {s.fq_name: s.kind for s in symbols("conversions.hpp")}
    assert found["color_type.operator bool"] == "Method"
    assert found["color_type.operator const char*"] == "Method"
    assert "color_type.fg" not in found and "fg" not in found


def test_cpp_macros_tree_sitter_cannot_expand_leave_the_declarations_around_them() -> None:
    # ranges.h: `FMT_PRAGMA_CLANG(...)` alone on a line lost `enum class range_format`;
    # args.h: `if FMT_CONSTEXPR20 (...)` lost the methods after it; gtest's `class
    # GTEST_API_ ScopedFakeTestPartResultReporter` lost the class; `#if FMT_USE_CONSTEXPR`
    # had its condition written over (an `#if` with none: an ERROR to the `#endif`);
    # `FMT_TRY {} FMT_CATCH(...) {}` made a function named FMT_CATCH
    found = {s.fq_name: s.kind for s in symbols("conversions.hpp")}
    assert found["range_format"] == "Enum" and found["range_format.map"] == "Field"
    assert found["ScopedReporter"] == "Type" and found["ScopedReporter.clear"] == "Method"
    assert found["ScopedReporter.value_"] == "Field"
    assert found["constexpr_only"] == found["vformat"] == "Function"
    assert not {name for name in found if "FMT_" in name}


def test_csharp_member_heads_under_if_else_leave_the_file_parsed() -> None:
    # serilog's `#if FEATURE_SPAN` head / `#else` head / shared body made the whole file one
    # ERROR: members after it came out wrong or not at all (a Property named after the
    # directive's symbol, calls in expression bodies as methods)
    found = {s.fq_name: s.kind for s in symbols("Conditional.cs")}
    owner = "Serilog.Capturing.PropertyBinder"
    assert found == {
        owner: "Type",
        f"{owner}._valueConverter": "Field",
        f"{owner}.ConstructProperties": "Method",
        f"{owner}.ConstructProperty": "Method",
        f"{owner}.IsEnabled": "Property",
    }


def test_a_csharp_indexer_is_named_item_not_by_a_keyword() -> None:
    # `public Order this[int index]` was a Property named `this` (serilog's tests: the one
    # C# symbol named by a keyword); .NET names an indexer `Item`
    found = {s.fq_name: s.kind for s in symbols("Sample.cs")}
    assert found["Shop.Orders.OrderService.Item"] == "Property"
    assert not {s.name for s in symbols("Sample.cs")} & KEYWORDS["csharp"]


def test_a_ts_namespace_of_a_namespace_qualifies_the_reference() -> None:
    # zod: `z.coerce.string()` was an unqualified `string` (the qualifier was one name only)
    body = 'import * as z from "./external.js";\nexport const a = z.coerce.string();\n'
    records = symbols_of(upsert("src/classic/use.ts", body))
    assert records is not None
    assert ("a", "string", "src/classic/external.coerce.string") in records[1].references


def test_a_multi_line_literal_value_is_left_out_of_the_signature() -> None:
    # koa's `const proto = module.exports = {`: its signature ran 240 characters into the
    # methods the object lists (comments and bodies included)
    found = {s.fq_name: s.signature for s in symbols("literal_values.js")}
    assert found["proto"] == "const proto = module.exports = {…}"
    assert found["proto.onerror"] == "onerror (err)"
    assert found["METHODS"] == "const METHODS = […]"
    assert found["Settings.defaults"] == "defaults = {…}"
    assert found["ONE_LINE"] == "const ONE_LINE = { a: 1, b: [2, 3] }"  # one line: the value


def test_an_overloads_name_is_bounded_and_the_overloads_stay_distinct() -> None:
    # fastify's `addHook('onError', hook: Fn extends unknown ? ... : Fn)` was named by every
    # character of its types (330 of them, shown in search reasons), without their spaces
    found = [s.fq_name for s in symbols("long_overloads.ts")]
    hooks = [fq for fq in found if fq.startswith("Instance.addHook(")]
    assert len(hooks) == len(set(hooks)) == 3
    assert all(len(fq) <= len("Instance.addHook()") + 100 for fq in hooks)
    assert hooks[0].startswith("Instance.addHook('onError',Fn extends unknown?")
    # types of at most 40 characters stay as written, type arguments and all
    assert "Instance.find(string)" in found and "Instance.find(readonly number[])" in found


def test_a_rust_traits_associated_types_are_symbols() -> None:
    # ripgrep's `trait Matcher { type Captures: Captures; type Error: ...; }`: syn and ctags
    # report both; we had only an impl's `type Captures = NoCaptures;`
    found = {s.fq_name: s.kind for s in symbols("assoc_types.rs")}
    assert found["Matcher.Captures"] == found["Matcher.Error"] == "Other"
    assert found["NoMatch.Captures"] == "Other"


def test_an_object_type_in_a_signature_declares_nothing_and_string_names_keep_their_words() -> None:
    # zod's 14 locales (`export default function (): { localeError: ... }`) had a file-level
    # Property `localeError`; trpc's `extends Config<{ responseStyle: T }>` a member
    # `responseStyle` of the interface; zod's benchmarks a method `T|INVALID` for `"T |
    # INVALID"() {}` (tsc names neither of the first two and the third `T | INVALID`)
    found = {s.fq_name: s.kind for s in symbols("signature_types.ts")}
    assert found == {
        "RequestOptions": "Interface",
        "RequestOptions.url": "Property",
        "RequestOptions.parse": "Method",
        "Handler": "Other",
        "Handler.path": "Property",  # a type alias's type: tsc names it too
        "T | INVALID": "Method",
    }


def test_python_names_a_module_binds_under_a_condition_a_try_or_a_with_are_symbols() -> None:
    # click's `if WIN: BEFORE_BAR = ...`, `if t.TYPE_CHECKING: _InputT_contra = ...`, httpx's
    # `try: import brotli` / `except ImportError: brotli = None` were no symbols (ctags
    # reports them); a loop's, a function's and a class's conditional names stay out
    found = {s.fq_name for s in symbols("conditional.py")}
    wanted = {"BEFORE_BAR", "BEFORE_BAR#2", "DEEP", "OTHER", "brotli", "data", "TOP"}
    assert {f"conditional.{name}" for name in wanted} <= found
    assert not {"conditional.loop_var", "conditional.f.local", "conditional.C.attr"} & found


def test_a_php_scripts_global_variables_are_symbols() -> None:
    # bat's PHP sample (`$number = 2;` at file level): 16 of ctags' 18 PHP fields we lacked;
    # a function's locals stay out
    found = {s.fq_name: s.kind for s in symbols("globals.php")}
    assert found["variable"] == found["number"] == found["third"] == "Field"
    assert "show.local" not in found and "local" not in found


def test_a_ruby_operator_method_is_named_by_its_operator() -> None:
    # sinatra-contrib's `def <<(data)` was a Function named "" (the name lost its brackets
    # as an include's `<stdio.h>` does); `def <=>` was `=`
    found = [s.fq_name for s in symbols("operators.rb")]
    assert found == ["Stream", "Stream.<<", "Stream.<=>", "Stream.>", "Stream.==", "Stream.[]"]


def test_each_name_a_python_module_binds_by_a_tuple_is_a_symbol() -> None:
    # click's docs/conf.py `release, version = get_version("Click")`: ctags reports both
    found = {s.fq_name for s in symbols("conditional.py")}
    wanted = {"release", "version", "T1", "T2"}
    assert {f"conditional.{name}" for name in wanted} <= found


def test_comments_before_a_body_are_no_part_of_the_signature() -> None:
    # requests' `def __setitem__(...) -> None:` was signed `... -> None: # Use the lowercased
    # key for lookups, but store the actual # key alongside the value.`: tree-sitter hangs the
    # comments that open a body on the definition, ahead of its block
    body = (
        "class Dict:\n"
        "    def __setitem__(self, key: str, value: int) -> None:\n"
        "        # Use the lowercased key for lookups, but store the actual\n"
        "        # key alongside the value.\n"
        "        self._store[key.lower()] = (key, value)\n\n"
        "    def get(self, key):  # type: ignore[override]\n"
        "        return None\n"
    )
    records = symbols_of(upsert("structures.py", body))
    assert records is not None
    found = {s.fq_name: s.signature for s in records[0].symbols}
    assert found["structures.Dict.__setitem__"] == (
        "def __setitem__(self, key: str, value: int) -> None"
    )
    assert found["structures.Dict.get"] == "def get(self, key)"
    c_body = "int f(int x) /* why */ {\n  return x;\n}\n"
    records = symbols_of(upsert("f.c", c_body))
    assert records is not None
    assert [s.signature for s in records[0].symbols] == ["int f(int x)"]


def test_every_name_of_a_chained_python_assignment_is_a_symbol() -> None:
    # `USER = PASSWORD = None` declared only USER: `from .conf import PASSWORD` found no
    # declaration, and the module's outline left the name out
    body = (
        "USER = PASSWORD = None\nA = B = C = 1\n"
        "class K:\n    x = y = 2\n    def m(self):\n        p = q = 3\n"
    )
    records = symbols_of(upsert("conf.py", body))
    assert records is not None
    found = {s.fq_name: (s.kind, s.start_line) for s in records[0].symbols}
    assert found == {
        "conf.USER": ("Field", 1),
        "conf.PASSWORD": ("Field", 1),
        "conf.A": ("Field", 2),
        "conf.B": ("Field", 2),
        "conf.C": ("Field", 2),
        "conf.K": ("Type", 3),
        "conf.K.x": ("Field", 4),
        "conf.K.y": ("Field", 4),
        "conf.K.m": ("Method", 5),
    }


def test_comments_inside_a_head_are_left_out_of_its_signature() -> None:
    # nitro's `type ObservabilityRoute = { src: string; // route pattern dest: ...`: collapsed
    # onto one line, the comment read as if it commented out the rest of the head
    ts = "type Route = {\n  src: string; // route pattern\n  /* the target */ dest?: string;\n};\n"
    records = symbols_of(upsert("routes.ts", ts))
    assert records is not None
    found = {s.fq_name: s.signature for s in records[0].symbols}
    assert found["Route"] == "type Route = { src: string; dest?: string; };"
    py = "def run(\n    self,  # the runner\n    quiet: bool,  # say nothing\n) -> int:\n    pass\n"
    records = symbols_of(upsert("run.py", py))
    assert records is not None
    assert [s.signature for s in records[0].symbols] == ["def run( self, quiet: bool, ) -> int"]


def test_a_class_field_holding_a_function_is_signed_up_to_its_body() -> None:
    # the factory's `createApp = (options?: HonoOptions<E>): Hono<E> => { const app = ...`
    # was signed with its body, 240 characters of it, as no method is
    ts = (
        "class Factory {\n"
        "  createApp = (options?: Options): App => {\n    return new App(options)\n  }\n"
        "  run = async function (x: number) {\n    return x\n  }\n"
        "  short = (x: number) => x + 1\n"
        "}\n"
    )
    records = symbols_of(upsert("factory.ts", ts))
    assert records is not None
    found = {s.fq_name: s.signature for s in records[0].symbols}
    assert found["Factory.createApp"] == "createApp = (options?: Options): App"
    assert found["Factory.run"] == "run = async function (x: number)"
    assert found["Factory.short"] == "short = (x: number) => x + 1"  # no body: the whole line


def test_a_go_struct_s_embedded_fields_are_its_fields() -> None:
    # gorm's `type DB struct { *Config; ... }` had no `Config` in its outline: an embedded
    # field is named by its type, and the promoted members come through that name
    go = "package gorm\n\ntype DB struct {\n\t*Config\n\tclause.Expr\n\tBase[T]\n\tError error\n}\n"
    records = symbols_of(upsert("gorm.go", go))
    assert records is not None
    fields = {s.fq_name: s.signature for s in records[0].symbols if s.kind == "Field"}
    assert fields == {
        "gorm.DB.Config": "*Config",
        "gorm.DB.Expr": "clause.Expr",
        "gorm.DB.Base": "Base[T]",
        "gorm.DB.Error": "Error error",
    }


def test_a_mapped_types_key_is_no_property() -> None:
    # feathers' `{ [type in HookType]?: HookFunction[] }`: `type` is a keyword, so tree-sitter
    # reads the key as a computed name `[type in HookType]`, and it was a Property
    # `[typeinHookType]`; `[K in keyof T]` parses as the mapped type it is and declares nothing
    body = (
        "type Hooks = { [type in HookType]?: Fn; [Symbol.iterator]: X; name: string }\n"
        "type M<T> = { readonly [K in keyof T]: T[K] }\n"
    )
    records = symbols_of(upsert("src/hooks.ts", body))
    assert records is not None
    found = {s.fq_name: s.kind for s in records[0].symbols}
    assert found == {
        "Hooks": "Other",
        "Hooks.[Symbol.iterator]": "Property",
        "Hooks.name": "Property",
        "M": "Other",
    }
