"""A message with values formatted into its middle unquoted is written by the file whose
template holds its opening and closing words apart (`Cannot stop child actor ${child.id} of
${this.id} because it is not a child`, pasted `Cannot stop child actor child of parent
because it is not a child`): no phrase of the pasted words is in the source, and QA on
statelyai/xstate noted it as raised by a dependency while createActor.ts, writing it, came
first (query_api/retrieval/unwritten_message.py). A message no file writes keeps the note."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.unwritten_message import NOTE
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

ACTOR = """\
export class Actor {
  stopChild(child: Actor) {
    if (child.parent !== this) {
      throw new Error(
        `Cannot stop child actor ${child.id} of ${this.id} because it is not a child`
      );
    }
    child.stop();
  }
}
"""

FILES = {
    "package.json": '{"name": "pkg"}\n',
    "src/actor.ts": ACTOR,
    "src/system.ts": "export function stopActor(actor: Actor) {\n  actor.stop();\n}\n",
}


async def test_a_message_with_unquoted_values_is_written_here(tmp_path: Path) -> None:
    queries = [
        "Error: Cannot stop child actor child of parent because it is not a child",
        "Error: Cannot stop the world because the actor is not a parent of it",
    ]
    async with indexed_app(tmp_path, FILES) as app:
        written, unwritten = [
            await app.service.search(t.SearchArgs(repoId="repo", query=query)) for query in queries
        ]
    assert written.hits and written.hits[0].entry.path == "src/actor.ts"
    assert NOTE not in (written.note or ""), written.note
    if unwritten.hits:  # no file holds its words so: still noted
        assert NOTE in (unwritten.note or ""), unwritten.note
