"""ContentProcessor: golden records, bounds, binary handling and replay properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from processors.base import Emit, ProcessContext
from processors.content import ContentProcessor
from processors.errors import UnprocessableEvent
from schemas import topics
from schemas.events import MAX_BODY_CHARS, FileUpsert, file_key
from schemas.records import ContentRecord, StructureRecord

CTX = ProcessContext()
CONTENT = topics.CONTENT.name


def upsert(path: str = "src/utf8Writer.py", body: str = "", **kw: object) -> FileUpsert:
    fields: dict[str, object] = {
        "repo_id": "shop",
        "path": path,
        "digest": "xx128:beef",
        "size": len(body),
        "mtime_ns": 1,
        "body": body,
        "observed_at": 2.0,
    }
    fields.update(kw)
    return FileUpsert.model_validate(fields)


def run(event: BaseModel | None, key: str | None = None) -> list[Emit]:
    if key is None and isinstance(event, FileUpsert):
        key = file_key(event.repo_id, event.path)
    return ContentProcessor().process(topics.FILES.name, key, event, CTX)


def test_golden_record() -> None:
    body = "def getUserName(user_id):\n    return HTTPServer.lookup(user_id)\n"
    [emit] = run(upsert(body=body))
    assert (emit.topic, emit.key) == (CONTENT, "shop/src/utf8Writer.py")
    assert isinstance(emit.value, ContentRecord)
    assert emit.value.model_dump() == {
        "v": 1,
        "type": "content",
        "repo_id": "shop",
        "path": "src/utf8Writer.py",
        "digest": "xx128:beef",
        "language": "python",
        "body": body,
        "truncated": False,
        "path_terms": "src utf 8 writer py",
        "body_terms": None,  # the body's own tokens: readers derive them
        "token_count": None,
        "language_terms": "python",
        "processor_version": 1,
    }


def test_body_is_bounded_again_and_marked_truncated() -> None:
    [emit] = run(upsert(body="ab " * (MAX_BODY_CHARS // 3 + 10)))
    assert isinstance(emit.value, ContentRecord)
    assert len(emit.value.body) == MAX_BODY_CHARS
    assert emit.value.truncated is True


def test_terms_travel_only_for_text_past_the_body() -> None:
    # the views index a body's tokens without them (test_views: the same search either way)
    [emit] = run(upsert(body="ab " * (MAX_BODY_CHARS // 3) + "tail words"))
    assert isinstance(emit.value, ContentRecord) and emit.value.body_terms is not None
    assert emit.value.body_terms.endswith("ab tail words")
    assert len(emit.value.body_terms) > len(emit.value.body)
    [emit] = run(upsert(body="x", truncated=True))  # the source cut it: the body is all there is
    assert isinstance(emit.value, ContentRecord) and emit.value.body_terms is None


def test_source_truncation_flag_is_kept() -> None:
    [emit] = run(upsert(body="x", truncated=True))
    assert isinstance(emit.value, ContentRecord) and emit.value.truncated is True


def test_language_hint_wins() -> None:
    [emit] = run(upsert(path="Jenkinsfile", body="node {}", language="groovy"))
    assert isinstance(emit.value, ContentRecord) and emit.value.language == "groovy"


def test_binary_file_emits_a_tombstone_so_old_text_content_goes() -> None:
    assert run(upsert(path="img.png", binary=True)) == [Emit(CONTENT, "shop/img.png", None)]


def test_tombstone_in_tombstone_out() -> None:
    assert run(None, "shop/a.py") == [Emit(CONTENT, "shop/a.py", None)]


@pytest.mark.parametrize(
    ("event", "key"),
    [
        (
            StructureRecord(
                repo_id="shop",
                path="a",
                digest="d",
                language="",
                size=0,
                line_count=0,
                mtime_ns=0,
                ingested_at=0.0,
            ),
            "shop/a",
        ),
        (upsert(path="a.py"), "other/a.py"),
        (None, None),
    ],
)
def test_malformed_input_is_unprocessable(event: BaseModel | None, key: str | None) -> None:
    with pytest.raises(UnprocessableEvent):
        ContentProcessor().process(topics.FILES.name, key, event, CTX)


# -- replay properties ----------------------------------------------------------------------

PATHS = ("a.py", "docs/B.md", "img.png")
keyed = st.tuples(
    st.sampled_from(PATHS),
    st.one_of(st.none(), st.tuples(st.text(max_size=60), st.booleans())),
).map(
    lambda pv: (
        file_key("shop", pv[0]),
        None if pv[1] is None else upsert(path=pv[0], body=pv[1][0], binary=pv[1][1]),
    )
)


def materialise(emits: list[Emit]) -> dict[str | None, BaseModel]:
    state: dict[str | None, BaseModel] = {}
    for emit in emits:
        if emit.value is None:
            state.pop(emit.key, None)
        else:
            state[emit.key] = emit.value
    return state


def emits_of(sequence: list[tuple[str, FileUpsert | None]]) -> list[Emit]:
    return [e for key, event in sequence for e in run(event, key)]


@given(st.lists(keyed, max_size=12))
def test_processing_twice_equals_once(sequence: list[tuple[str, FileUpsert | None]]) -> None:
    once = emits_of(sequence)
    assert emits_of(sequence) == once
    assert materialise(once + once) == materialise(once)


@given(st.lists(keyed, max_size=12))
def test_a_tombstone_after_any_sequence_leaves_nothing(
    sequence: list[tuple[str, FileUpsert | None]],
) -> None:
    deletes: list[tuple[str, FileUpsert | None]] = [(file_key("shop", p), None) for p in PATHS]
    assert materialise(emits_of(sequence + deletes)) == {}


@given(st.lists(keyed, min_size=1, max_size=12))
def test_the_last_event_alone_decides_the_state(
    sequence: list[tuple[str, FileUpsert | None]],
) -> None:
    # Replace-per-file: the state of a key depends only on that key's last event.
    last = {key: event for key, event in sequence}
    assert materialise(emits_of(sequence)) == materialise(emits_of(list(last.items())))
