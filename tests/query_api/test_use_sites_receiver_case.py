"""`what calls App.use` points a file at a call through a value named for the type in another
case (`app.use(...)`, `const app = new App()`) before a call of another object's `use`. QA on
tinyhttp/tinyhttp: examples/couchdb/index.js pointed at `const todoDB = nano.db.use('todos')`
(line 20), not at `app.use('/todos', bodyParser.urlencoded())` three lines below."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.use_sites import at_use_sites
from tests.query_api.located import located_hits

SERVER = "\n".join(
    [
        "import { App } from '@tinyhttp/app'",  # 1
        "import nano from 'nano'",  # 2
        "",
        "const app = new App()",  # 4
        "const todoDB = nano.db.use('todos')",  # 5
        "",
        "app.use('/todos', json())",  # 7
        "app.listen(3000)",  # 8
        "",
    ]
)


def test_a_call_through_a_value_named_for_the_type_comes_first(tmp_path: Path) -> None:
    [hit] = located_hits(tmp_path, {"index.js": SERVER}, "what calls App.use", at_use_sites)
    assert hit.snippet is not None and hit.snippet.startswith("7: app.use('/todos'"), hit


def test_the_type_written_as_such_still_comes_first(tmp_path: Path) -> None:
    both = SERVER.replace("app.listen(3000)", "App.use(json())")
    [hit] = located_hits(tmp_path, {"index.js": both}, "what calls App.use", at_use_sites)
    assert hit.snippet is not None and hit.snippet.startswith("8: App.use(json())"), hit
