"""A question about config, docs, tests or examples is searched without its opening question
words, and a JSON file with comments is config. QA on sinclairzx81/typebox, whose every
source file writes `// deno-fmt-ignore-file`: `where is the deno config` ranked first the
files writing `where` in a comment, rare in code and so weighed above `deno`, and deno.jsonc
(counted as source) nowhere."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from processors.path_roles import Role, role_of, without_question_words
from streams.stores.views.search import keyword_search
from tests.streams.symbol_records import views_holding

SOURCE = "// deno-fmt-ignore-file\nexport const x{i} = {i}\n"
WHERE = "// deno-fmt-ignore-file\n// where the key is assigned, where it is read\nexport {{}}\n"
FILES = {
    **{f"src/m{i}.ts": SOURCE.format(i=i) for i in range(30)},
    **{f"src/where{i}.ts": WHERE.format() for i in range(3)},
    "deno.jsonc": '{\n  // deno tasks\n  "tasks": { "test": "deno run -A tasks.ts test" }\n}\n',
}


def test_a_config_question_is_searched_without_its_question_words(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        for query in ("where is the deno config", "how is deno configured"):
            hits = store.read(partial(keyword_search, repo_id="r", query=query, k=5))
            assert [h.path for h in hits[:1]] == ["deno.jsonc"], (query, hits)


def test_the_question_words_of_other_queries_stay() -> None:
    assert without_question_words("where is the deno config", "where is the deno").split() == [
        "deno"
    ]
    asked = "where are the tests for Value.Repair"
    assert without_question_words(asked, asked).split() == ["tests", "for", "Value.Repair"]
    for query in ("Fix where clause in docs", "where is Memory.Create defined", "how to build"):
        assert without_question_words(query, query) == query


def test_a_json_file_with_comments_is_config() -> None:
    assert role_of("deno.jsonc") == Role.CONFIG and role_of(".vscode/x.json5") == Role.CONFIG
