"""A configuration query whose subject is several words (`where is the error field name
configured`) puts first the config files holding all of them, not one: a workflow holds
`name:` and `continue-on-error` as every workflow does."""

from __future__ import annotations

from query_api.retrieval.docs_first import asked_pages_first, holds_subject
from query_api.retrieval.hit_details import QueryTerms
from schemas import tools as t


def _hit(path: str, score: float) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(score=score, entry=entry, reasons=["content-match"])


WORKFLOW = "jobs:\n  test:\n    steps:\n    - name: Test\n      continue-on-error: true\n"
TEXTS = {
    ".github/workflows/test.yml": WORKFLOW,
    "globals.go": 'var (\n\tErrorFieldName = "error"\n)\n',
    "settings.toml": "[logging]\nerror_field_name = 'err'\n",
}


def _holds(path: str, terms: QueryTerms) -> bool:
    return holds_subject(TEXTS[path], terms)


def test_a_config_file_holding_one_word_of_the_subject_is_not_lifted() -> None:
    """QA on rs/zerolog: `where is the error field name configured` ranked
    .github/workflows/test.yml first (`- name: Update coverage report`,
    `continue-on-error: true`), globals.go, declaring ErrorFieldName, fifth."""
    hits = [_hit("globals.go", 1.0), _hit(".github/workflows/test.yml", 0.4)]
    query = "where is the error field name configured"
    assert asked_pages_first(query, hits, _holds) == hits


def test_a_config_file_holding_every_word_is() -> None:
    hits = [_hit("globals.go", 1.0), _hit(".github/workflows/test.yml", 0.4)]
    hits.append(_hit("settings.toml", 0.3))
    query = "where is the error field name configured"
    paths = [hit.entry.path for hit in asked_pages_first(query, hits, _holds)]
    assert paths[0] == "settings.toml", paths
