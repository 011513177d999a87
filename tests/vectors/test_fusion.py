"""The hybrid fusion's rules, on hand-made lists (the ladder tests run it end to end)."""

from __future__ import annotations

from query_api.retrieval.file_hits import file_entry as _file_entry
from query_api.retrieval.fusion import KEYWORD_SHARE, fuse
from query_api.retrieval.held_in_fusion import held_at_keyword_rank
from schemas import tools as t


def hit(path: str, score: float, *reasons: str) -> t.SearchHit:
    entry = _file_entry("repo", path, None)
    return t.SearchHit(score=score, entry=entry, vectorId=None, reasons=list(reasons))


def fused(
    semantic: list[tuple[str, float]], keyword: list[tuple[str, float]], *, impute: bool = False
) -> list[str]:
    hits = fuse(
        [hit(p, s, "semantic") for p, s in semantic],
        [hit(p, s, "content-match") for p, s in keyword],
        10,
        impute=impute,
    )
    return [h.entry.path or "" for h in hits]


def test_a_file_both_lists_find_leads() -> None:
    order = fused([("a.py", 0.8), ("b.py", 0.7)], [("c.py", 9.0), ("a.py", 8.0)])
    assert order[0] == "a.py"


def test_a_tie_goes_to_the_lexical_match() -> None:
    assert KEYWORD_SHARE >= 0.5
    assert fused([("vec.py", 0.8)], [("lex.py", 5.0)]) == ["lex.py", "vec.py"]


def test_a_wide_bm25_lead_survives_a_semantic_first_place() -> None:
    """Rank fusion would tie `named.py` (BM25 far ahead) with `close.py` (the vectors' first,
    BM25's second); the scores say named.py is the better bet."""
    semantic = [("close.py", 0.62), ("named.py", 0.60), ("other.py", 0.40)]
    keyword = [("named.py", 30.0), ("close.py", 6.0), ("other.py", 5.0)]
    assert fused(semantic, keyword)[0] == "named.py"


def test_a_file_both_lists_found_outranks_one_only_the_vectors_top() -> None:
    """`both.py` is BM25's third at under a third of the first's score and mid-way down the
    vectors' list; `vector_only.py` tops the vectors and no keyword matched it. Scaled
    linearly with equal shares, vector_only.py would lead both.py (0.5 against 0.4)."""
    semantic = [("vector_only.py", 0.50), ("both.py", 0.35), ("far.py", 0.20)]
    keyword = [("named.py", 10.0), ("also.py", 9.0), ("both.py", 3.0)]
    order = fused(semantic, keyword)
    assert order.index("both.py") < order.index("vector_only.py")


def test_files_no_list_ranks_well_stay_behind() -> None:
    semantic = [("a.py", 0.9), ("b.py", 0.7), ("z.py", 0.3)]
    keyword = [("a.py", 10.0), ("c.py", 2.0), ("z.py", 0.1)]
    assert fused(semantic, keyword)[-1] == "z.py"


def test_while_backfilling_a_file_without_a_vector_keeps_its_bm25_place() -> None:
    """`unembedded.py` is BM25's first but has no vector yet; `embedded.py` is BM25's second
    and the vectors' first. Complete coverage: both lists favour embedded.py, it leads.
    Partial: the first file is not pushed down for lacking a vector."""
    semantic = [("embedded.py", 0.8), ("far.py", 0.3)]
    keyword = [("unembedded.py", 10.0), ("embedded.py", 9.0)]
    assert fused(semantic, keyword)[0] == "embedded.py"
    assert fused(semantic, keyword, impute=True)[0] == "unembedded.py"


def test_hits_found_by_both_lists_carry_both_reasons() -> None:
    hits = fuse([hit("a.py", 0.9, "semantic")], [hit("a.py", 3.0, "content-match")], 5)
    assert hits[0].reasons == ["semantic", "keyword-fused", "content-match"]


def test_a_file_that_can_have_no_vector_keeps_its_keyword_rank() -> None:
    """A test file the query asks for is never embedded: the fusion ranks it no lower than
    the keyword list did, scored as the hit it passed; other files keep their fused order."""
    semantic = [(f"src/m{i}.py", 0.9 - i / 100) for i in range(6)]
    keyword = [("src/args.py", 20.0), ("tests/test_args.py", 3.0), ("src/m0.py", 1.0)]
    hits = fuse(
        [hit(p, s, "semantic") for p, s in semantic],
        [hit(p, s, "content-match") for p, s in keyword],
        10,
        unembedded=lambda h: (h.entry.path or "").startswith("tests/"),
    )
    paths = [h.entry.path for h in hits]
    assert paths[:3] == ["src/args.py", "tests/test_args.py", "src/m0.py"], paths
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    plain = fused(semantic, keyword)
    assert plain.index("tests/test_args.py") > 1  # what the rule mends


def test_the_files_of_an_example_program_a_request_names_keep_their_keyword_rank() -> None:
    """`Fix race in command example`: examples are never embedded, so examples/command/
    keeps the place keyword search gave it (QA on gorilla/websocket)."""
    held = held_at_keyword_rank("Fix race in command example")
    assert held is not None
    assert held(hit("examples/command/main.go", 1.0))
    assert not held(hit("examples/chat/main.go", 1.0))


def test_a_request_naming_ci_keeps_the_ci_files_at_their_keyword_rank() -> None:
    """`Add GH CI Java 26`: a workflow is never embedded, and the fusion put the twelve
    library files the vectors list holds above .github/workflows/maven.yml, which keyword
    search ranked first (QA on apache/commons-csv)."""
    held = held_at_keyword_rank("Add GH CI Java 26")
    assert held is not None
    assert held(hit(".github/workflows/maven.yml", 1.0))
    assert not held(hit("pom.xml", 1.0))
    unheld = held_at_keyword_rank("Add Java 26")
    assert unheld is None or not unheld(hit(".github/workflows/maven.yml", 1.0))


def test_ci_inside_a_name_holds_no_ci_file() -> None:
    workflow = hit(".github/workflows/test.yml", 1.0)
    for query in (
        "check for process.env.CI in --forbid-only",
        "fix X (#12) Co-authored-by: pre-commit-ci[bot] <bot@example.com>",
        "add built-in github-actions reporter",
    ):
        held = held_at_keyword_rank(query)
        assert held is None or not held(workflow), query
    for query in ("ci: cache the maven repository", "Run CI on Linux and macOS"):
        held = held_at_keyword_rank(query)
        assert held is not None and held(workflow), query
