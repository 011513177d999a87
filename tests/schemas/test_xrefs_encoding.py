"""xrefs.v1 values: references travel as [symbol, name, qualified] arrays; logs written before
that (one object per reference) still decode, so a replay of an old log rebuilds the views."""

from __future__ import annotations

import json

import pytest

from schemas import topics
from schemas.codec import decode, encode
from schemas.errors import DecodeError
from schemas.symbols import XrefsRecord

COMMON = {"repo_id": "r", "path": "a.py", "digest": "xx128:1", "language": "python"}


def test_references_round_trip_as_arrays() -> None:
    record = XrefsRecord(
        **COMMON, imports=["pkg.mod"], references=[("f", "g", None), ("", "Mod", "pkg.mod.Mod")]
    )
    raw = encode(record)
    assert json.loads(raw)["references"] == [["f", "g", None], ["", "Mod", "pkg.mod.Mod"]]
    assert decode(topics.XREFS.name, raw) == record


def test_object_references_of_older_logs_decode() -> None:
    legacy = {
        **COMMON,
        "type": "xrefs",
        "v": 1,
        "imports": [],
        "references": [
            {"symbol": "f", "name": "g", "qualified": None},
            {"symbol": "", "name": "h"},
        ],
    }
    decoded = decode(topics.XREFS.name, json.dumps(legacy).encode())
    assert isinstance(decoded, XrefsRecord)
    assert decoded.references == [("f", "g", None), ("", "h", None)]


def test_a_malformed_reference_is_a_decode_error() -> None:
    bad = {**COMMON, "type": "xrefs", "references": [{"symbol": "f"}]}
    with pytest.raises(DecodeError, match="references"):
        decode(topics.XREFS.name, json.dumps(bad).encode())
