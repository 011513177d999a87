"""Which declaration past the stored text a query names (query_api/retrieval/past_body_names.
named_past_body): not a constructor, which bears the name of its class, when the class's head
is stored; of overloads, the one whose parameter types the query writes."""

from __future__ import annotations

from query_api.retrieval.hit_details import query_terms
from query_api.retrieval.past_body_names import named_past_body
from streams.stores.views.symbol_spans import SymbolSpan

BODY = "\n".join(f"// line {n}" for n in range(1, 1390))  # FileUtils.java's stored 1389 lines
FILE_UTILS = "org.apache.commons.io.FileUtils"
SYMBOLS = [
    SymbolSpan(FILE_UTILS, "FileUtils", 80, 3603, "Type"),
    SymbolSpan(FILE_UTILS + ".copyDirectory", "copyDirectory", 553, 555, "Method"),
    SymbolSpan(FILE_UTILS + ".FileUtils", "FileUtils", 3599, 3602, "Method"),
]


def test_a_constructor_past_the_stored_text_is_not_named_by_its_class_s_name() -> None:
    """QA on apache/commons-io: `tests for FileUtils copyDirectory` pointed FileUtils.java at
    its deprecated constructor `FileUtils()` (lines 3599-3602, past the stored text, no
    snippet), not at the stored `copyDirectory` lines."""
    reasons = [f"symbol:{s.fq_name}" for s in SYMBOLS]
    terms = query_terms("tests for FileUtils copyDirectory")
    assert named_past_body(SYMBOLS, reasons, terms, BODY) is None


def test_a_constructor_of_a_class_past_the_stored_text_is_still_named() -> None:
    inner = FILE_UTILS + ".Inner"
    symbols = [
        *SYMBOLS,
        SymbolSpan(inner, "Inner", 3000, 3100),
        SymbolSpan(inner + ".Inner", "Inner", 3010, 3012),
    ]
    found = named_past_body(
        symbols, [f"symbol:{inner}.Inner"], query_terms("the Inner constructor"), BODY
    )
    assert found is not None and found.start_line == 3010, found


def test_of_overloads_past_the_stored_text_the_one_typed_as_the_query_writes() -> None:
    """QA on apache/commons-io: `FileUtils.writeStringToFile(File, String, Charset, boolean)
    ignores append` pointed FileUtils.java at the first of six overloads, (File,String) at line
    3510, not at (File,String,Charset,boolean), line 3557."""
    name = FILE_UTILS + ".writeStringToFile"
    overloads = [
        SymbolSpan(name + "(File,String)", "writeStringToFile", 3510, 3512, "Method"),
        SymbolSpan(name + "(File,String,Charset)", "writeStringToFile", 3541, 3543, "Method"),
        SymbolSpan(
            name + "(File,String,Charset,boolean)", "writeStringToFile", 3557, 3560, "Method"
        ),
    ]
    reasons = [f"symbol:{s.fq_name}" for s in overloads]
    query = "FileUtils.writeStringToFile(File, String, Charset, boolean) ignores append"
    found = named_past_body([*SYMBOLS, *overloads], reasons, query_terms(query), BODY)
    assert found is not None and found.start_line == 3557, found


def test_the_typed_overload_though_a_reason_names_another() -> None:
    name = FILE_UTILS + ".writeStringToFile"
    overloads = [
        SymbolSpan(name + "(File,String)", "writeStringToFile", 3510, 3512, "Method"),
        SymbolSpan(
            name + "(File,String,Charset,boolean)", "writeStringToFile", 3557, 3560, "Method"
        ),
    ]
    reasons = [f"symbol:{overloads[0].fq_name}"]  # search names the first overload
    query = "FileUtils.writeStringToFile(File, String, Charset, boolean) ignores append"
    found = named_past_body([*SYMBOLS, *overloads], reasons, query_terms(query), BODY)
    assert found is not None and found.start_line == 3557, found
