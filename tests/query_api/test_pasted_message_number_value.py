"""A pasted exception whose message a number splits into two short segments (`Body parameter
0 was null`, written `"Body parameter %s was null"`) asks for the files writing both segments
near each other: QA on OpenFeign/feign, `java.lang.IllegalArgumentException: Body parameter 0
was null` made no read (four words, under MIN_RUN) and ranked ExceptionGenerator.java, holding
`body`, `parameter` and `null` apart, above RequestTemplateFactoryResolver.java, which writes
the message."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.pasted_message import message_queries
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def test_two_segments_around_a_number_are_asked_near() -> None:
    asked = message_queries("java.lang.IllegalArgumentException: Body parameter 0 was null")
    assert 'body_terms : NEAR("body parameter" "was null", 3)' in asked, asked
    # a change request is no message, and one word beside a value names none
    assert message_queries("Fix Body parameter 0 was null") == []
    assert message_queries("Error: index 3 out") == []


_NOISE = "".join(
    f"  /** the body parameter index {i}, null when the method has no body parameter */\n"
    f"  Integer bodyIndex{i}() {{ return null; }}\n"
    for i in range(12)
)

FILES = {
    "src/main/java/app/Resolver.java": (
        "package app;\n\n"
        "final class Resolver {\n"
        "  Object body(Object[] argv, int index) {\n"
        "    Object body = argv[index];\n"
        '    checkArgument(body != null, "Body parameter %s was null", index);\n'
        "    return body;\n"
        "  }\n"
        "}\n"
    ),
    "src/main/java/app/BodyParameter.java": (
        "package app;\n\n/** A body parameter, or null. */\nfinal class BodyParameter {\n"
        + _NOISE
        + "}\n"
    ),
}


async def test_the_file_writing_the_message_leads(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "app") as app:
        query = "java.lang.IllegalArgumentException: Body parameter 0 was null"
        found = await app.service.search(t.SearchArgs(repoId="app", query=query))
        paths = [h.entry.path for h in found.hits]
        assert paths[0] == "src/main/java/app/Resolver.java", paths
        assert "Body parameter %s was null" in (found.hits[0].snippet or ""), found.hits[0]
