"""A users query naming a declaration in words (`what uses the TLV encoder`) asks for the users
of the declaration the words spell as code (`TLVEncoder`), when one is declared. QA on
benoitc/gunicorn: `what uses the TLV encoder` placed no user of TLVEncoder, and ranked
http/message.py and http/wsgi.py, which do not use it, in the first five."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.spelled_users import spelled_name, spellings
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "app/dirty/tlv.py": (
        "class TLVEncoder:\n"
        '    """Type-length-value encoder of the binary protocol."""\n\n'
        "    @staticmethod\n"
        "    def encode(value):\n"
        "        return bytes(value)\n"
    ),
    "app/dirty/protocol.py": (
        "from app.dirty.tlv import TLVEncoder\n\n\n"
        "def encode_message(payload):\n"
        '    """Encode a message: the TLV encoder writes each value as its type, length and'
        ' value."""\n'
        "    return TLVEncoder.encode(payload)\n"
    ),
    "app/http/message.py": (
        "# the encoder of a header value: the TLV of a header is its length and value\n"
        "def encode_header(value):\n"
        "    return value.encode('latin-1')\n"
    ),
    "app/http/wsgi.py": (
        "# an encoder for the response body\n"
        "def encode_body(body, encoder=None):\n"
        "    return body if encoder is None else encoder(body)\n"
    ),
}


def test_the_words_spell_code_names() -> None:
    assert spellings("what uses the TLV encoder")[:3] == ["TLVEncoder", "TlvEncoder", "tlv_encoder"]
    assert "TLVEncoder" in spellings("which files use the tlv encoder")
    assert spellings("what calls the order service")[0] == "OrderService"
    assert "order_service" in spellings("where is the order service used?")
    # one word is a name users_first reads; four words, a preposition: no spelled name
    assert spellings("what uses the config") == []
    assert spellings("who calls the retry logic in client") == []
    assert spellings("add retry to the order service") == []


def test_only_a_declared_spelling_is_the_name() -> None:
    def declared(names: object) -> set[str]:
        return {"TLVEncoder"}

    assert spelled_name("what uses the TLV encoder", declared) == "TLVEncoder"
    assert spelled_name("what uses the order service", declared) is None


async def test_the_users_of_the_spelled_declaration_come_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(
            t.SearchArgs(repoId="repo", query="what uses the TLV encoder")
        )
    first = answer.hits[0]
    assert first.entry.path == "app/dirty/protocol.py", [h.entry.path for h in answer.hits]
    assert "uses:TLVEncoder" in first.reasons, first.reasons


async def test_the_hit_points_at_the_use_of_the_spelled_declaration(tmp_path: Path) -> None:
    """QA on benoitc/gunicorn: `who uses the dirty client` pointed
    benchmarks/dirty_benchmark.py at a docstring's `clients`, not at `DirtyClient(...)`."""
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(
            t.SearchArgs(repoId="repo", query="what uses the TLV encoder")
        )
    first = answer.hits[0]
    assert first.snippet is not None and "TLVEncoder.encode(payload)" in first.snippet, first
    assert "the TLV encoder writes" not in first.snippet, first
