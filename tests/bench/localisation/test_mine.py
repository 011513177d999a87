"""The case miner: query cleaning, the gold-file filter, and the skips on a real tiny history."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.evaluation.gold_paths import is_gold_path
from query_api.evaluation.requests import clean_query, clean_subject, verbatim_query
from tests.bench.localisation.fixture_repo import GOOD_QUERY, build
from tests.bench.localisation.mine import mine_repo


@pytest.mark.parametrize(
    ("subject", "cleaned"),
    [
        ("fix(core): keep the cache private (#6443)", "keep the cache private"),
        ("feat!: drop Node 18", "drop Node 18"),
        ("[core] Handle empty bodies, fixes #12", "Handle empty bodies"),
        ("ignore/types: add `proto` type", "ignore/types: add `proto` type"),
        ("🐛 fix(pip): skip constrain_package_deps", "skip constrain_package_deps"),
        (":sparkles: feat: allow bare ranges", "allow bare ranges"),
        ("`tox -e` honours labels", "`tox -e` honours labels"),
        ("Fix JsonPrimitive.hashCode (#992) (#3059)", "Fix JsonPrimitive.hashCode"),
        ("Closes #7: respect the pager mode", "respect the pager mode"),
        ("only destroy a stream https://github.com/koajs/koa/issues/1913", "only destroy a stream"),
    ],
)  # fmt: skip
def test_subjects_lose_scopes_issue_numbers_and_urls(subject: str, cleaned: str) -> None:
    assert clean_subject(subject) == cleaned


def test_the_first_body_paragraph_joins_and_trailers_do_not() -> None:
    message = "fix: keep order\n\nThe map lost\ninsertion order.\n\nMore detail.\n"
    assert clean_query(message) == "keep order The map lost insertion order."
    assert clean_query("Keep order\n\nSigned-off-by: A <a@b.c>\n") == "Keep order"
    assert clean_query("Keep order\n\n* a list item\n* another\n") == "Keep order"


def test_a_verbatim_query_keeps_what_the_commit_says() -> None:
    message = "🐛 fix(cache): keep order (#12)\n\nThe map lost\ninsertion order.\n\nMore.\n"
    asked = "🐛 fix(cache): keep order (#12) The map lost insertion order."
    assert verbatim_query(message) == asked
    assert verbatim_query("plugin/file: stop loops") == "plugin/file: stop loops"


def test_a_query_is_capped_near_sixty_words() -> None:
    message = "Make the parser faster\n\n" + " ".join(f"w{i}" for i in range(200))
    assert len(clean_query(message).split()) == 60


@pytest.mark.parametrize(
    ("path", "gold"),
    [
        ("src/click/core.py", True),
        ("lib/response.js", True),
        ("gson/src/main/java/com/google/gson/Gson.java", True),
        ("types/request.d.ts", True),
        ("tests/test_core.py", False),
        ("context_test.go", False),
        ("packages/zod/src/v4/classic/tests/string.test.ts", False),
        ("gson/src/test/java/com/google/gson/GsonTest.java", False),
        ("docs/conf.py", False),
        ("examples/minimal/server.ts", False),
        ("vendor/lib/x.go", False),
        ("dist/index.min.js", False),
        ("package-lock.json", False),
        ("CHANGELOG.md", False),
        ("Cargo.toml", False),
        ("__snapshots__/a.ts", False),
    ],
)
def test_gold_files_are_source_not_tests_docs_config_or_generated(path: str, gold: bool) -> None:
    assert is_gold_path(path) is gold


def test_mining_a_history_keeps_change_requests_and_skips_the_rest(tmp_path: Path) -> None:
    made = build(tmp_path / "work")
    cases = mine_repo("local/tiny", tmp_path / "work", made["good"])
    by_commit = {case.commit: case for case in cases}
    # newest first; the good commit's test file is not gold
    assert cases[0].commit == made["good"]
    assert cases[0].query == GOOD_QUERY
    assert cases[0].gold == ("src/parser.py",)
    # a merged branch's own commit is a case, the merge commit is not
    assert made["feature"] in by_commit and made["merge"] not in by_commit
    for skipped in ("test_only", "rename", "six", "bot", "docs", "short", "removed", "legacy"):
        assert made[skipped] not in by_commit, skipped
    # gold that no longer exists at the pin (src/util.py was renamed) is dropped
    assert by_commit[made["first"]].gold == ("src/parser.py",)


def test_mining_stops_at_the_limit(tmp_path: Path) -> None:
    made = build(tmp_path / "work")
    assert len(mine_repo("local/tiny", tmp_path / "work", made["good"], limit=2)) == 2
