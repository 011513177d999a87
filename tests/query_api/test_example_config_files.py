"""A config question asks for an example program's config files as for any config file, by
their text or their path. QA on gorilla/websocket: `where is the autobahn config` ranked
examples/autobahn/config/fuzzingclient.json 12th, below nine library files: its role is the
example's, so neither keyword search nor the config-first step counted it as config, and its
text never names `autobahn`, its folder does."""

from __future__ import annotations

from processors.path_roles import Role, is_example_config
from query_api.retrieval.docs_first import asked_pages_first, holds_subject
from query_api.retrieval.hit_details import QueryTerms
from schemas import tools as t
from streams.stores.views.search import role_prior


def _hit(path: str, score: float) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(score=score, entry=entry, reasons=["content-match"])


TEXTS = {
    "compression.go": "package websocket\n\n// compression settings for the connection\n",
    "examples/autobahn/server.go": "package main\n\n// autobahn test suite server\n",
    "examples/autobahn/config/fuzzingclient.json": '{\n  "cases": ["*"],\n  "outdir": "/r"\n}\n',
}


def _holds(path: str, terms: QueryTerms) -> bool:
    return holds_subject(TEXTS[path], terms)


def test_an_example_config_file_named_by_its_folder_comes_first() -> None:
    hits = [_hit(path, score) for path, score in zip(TEXTS, (1.0, 0.5, 0.2), strict=True)]
    paths = [
        hit.entry.path for hit in asked_pages_first("where is the autobahn config", hits, _holds)
    ]
    assert paths[0] == "examples/autobahn/config/fuzzingclient.json", paths


def test_keyword_search_weighs_it_as_config_for_a_config_question_only() -> None:
    path = "examples/autobahn/config/fuzzingclient.json"
    assert role_prior(path, set(), {Role.CONFIG}) == 1.0
    assert role_prior(path, set(), set()) < 1.0
    assert role_prior("examples/autobahn/server.go", set(), {Role.CONFIG}) < 1.0


def test_only_the_config_files_inside_an_example_or_benchmark_are() -> None:
    assert is_example_config("examples/autobahn/config/fuzzingclient.json")
    assert is_example_config("benchmarks/http/package.json")
    assert not is_example_config("examples/autobahn/server.go")
    assert not is_example_config("examples/chat/README.md")
    assert not is_example_config(".circleci/config.yml")  # a config file's role is config
