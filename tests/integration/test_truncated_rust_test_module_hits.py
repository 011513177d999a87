"""A change request's hit on a Rust file longer than the stored 64 Ki characters does not
point at a test of its `#[cfg(test)]` module past the stored text for a word no stored line
holds: a file's code comes before its tests unless the query is about tests
(query_api/retrieval/test_module_lines.py). QA on hyperium/hyper: `fix(http1): recognize
\\n\\r\\n as a head terminator in the partial-read fast path` pointed src/proto/h1/role.rs
(112 KB) at `tests.test_parse_accepts_lf_crlf_terminator` (line 3,005, no snippet: the text is
not stored) for `terminator`, not at `is_complete_fast` (line 100), the code the commit
changed, whose stored lines match the request."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas.events import MAX_BODY_CHARS
from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio

HEAD = (
    "/// Whether the bytes read so far end the message head: the partial-read fast path.\n"
    "fn is_complete_fast(bytes: &[u8], prev_len: usize) -> bool {\n"
    "    let start = prev_len.saturating_sub(3);\n"
    '    bytes[start..].windows(4).any(|w| w == b"\\r\\n\\r\\n")\n'
    "}\n\n"
    "fn write_status(dst: &mut Vec<u8>) {\n"
    "    // the head of a message, written fast: no partial read, no path\n"
    '    dst.extend(b"head");\n}\n\n'
    "#[cfg(test)]\nmod tests {\n    use super::*;\n\n"
)
FILLER = (
    "    #[test]\n    fn test_filler_{n}() {{\n"
    '        assert!(!is_complete_fast(b"GET / HTTP/1.1\\r\\n", {n}));\n    }}\n\n'
)
LATE = (
    "    #[test]\n    fn test_parse_accepts_lf_crlf_terminator() {\n"
    '        assert!(is_complete_fast(b"GET / HTTP/1.1\\r\\na: b\\n\\r\\n", 0));\n    }\n}\n'
)


async def test_a_request_hit_skips_a_test_past_the_stored_text(tmp_path: Path) -> None:
    root = rig_settings(tmp_path).workspace_root
    assert root is not None
    text = HEAD + "".join(FILLER.format(n=n) for n in range(700)) + LATE
    assert text.index("test_parse_accepts") > MAX_BODY_CHARS
    assert "terminator" not in text[:MAX_BODY_CHARS]
    (root / "repo" / "src").mkdir(parents=True, exist_ok=True)
    (root / "repo" / "src" / "role.rs").write_text(text)
    query = "recognize LF CRLF as a head terminator in the partial-read fast path"
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        hit = next(h for h in found["hits"] if h["entry"]["path"] == "src/role.rs")
        # is_complete_fast, which the next reason names: not the test past the stored text,
        # nor write_status, whose comment holds more of the request's words
        assert 2 <= hit["startLine"] <= hit["endLine"] <= 5, hit
        assert "is_complete_fast" in hit.get("snippet", ""), hit

        # a query about tests still points at the test past the stored text
        about = "tests for the LF CRLF head terminator"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": about})
        hit = next(h for h in found["hits"] if h["entry"]["path"] == "src/role.rs")
        late = text[: text.index("fn test_parse_accepts")].count("\n") + 1
        assert hit["startLine"] == late - 1, hit


NAMED = (
    "    #[test]\n    fn test_is_complete_fast() {\n"
    '        assert!(is_complete_fast(b"GET / HTTP/1.1\\r\\n\\r\\n", 0));\n    }\n}\n'
)


async def test_tests_for_a_function_point_at_its_test_past_the_stored_text(
    tmp_path: Path,
) -> None:
    """QA on hyperium/hyper: `tests for is_complete_fast` pointed role.rs at is_complete_fast
    itself (line 100), not at `test_is_complete_fast` (line 2,974, past the stored text)."""
    root = rig_settings(tmp_path).workspace_root
    assert root is not None
    text = HEAD + "".join(FILLER.format(n=n) for n in range(700)) + NAMED
    assert text.index("fn test_is_complete_fast") > MAX_BODY_CHARS
    (root / "repo" / "src").mkdir(parents=True, exist_ok=True)
    (root / "repo" / "src" / "role.rs").write_text(text)
    late = text[: text.index("fn test_is_complete_fast")].count("\n") + 1
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query in ("tests for is_complete_fast", "which test covers is_complete_fast"):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            hit = next(h for h in found["hits"] if h["entry"]["path"] == "src/role.rs")
            assert hit["startLine"] == late - 1, (query, hit)
