"""A query asking for the changelog alone points the changelog's hit at its head. QA on
oakserver/oak: `changelog` pointed CHANGELOG.md at line 1021, `- docs: add this CHANGELOG`,
its oldest entry, where the newest release opens the file."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.changelog_head import asks_changelog_alone, at_changelog_head
from tests.query_api.located import located_hits

CHANGELOG = (
    "# oak Change Log\n\n"
    "## Version 17.2.0\n\n"
    "- feat: add idleTimeout for websocket (#702)\n"
    + "".join(f"- fix: entry {n}\n" for n in range(40))
    + "\n## Version 0.1.0\n\n- docs: add this CHANGELOG\n"
)


def test_the_changelog_asked_alone_is_shown_from_its_head(tmp_path: Path) -> None:
    files = {"CHANGELOG.md": CHANGELOG}
    for name in ("before", "0", "1", "2"):
        (tmp_path / name).mkdir()
    [before] = located_hits(tmp_path / "before", files, "changelog")
    assert before.startLine is not None and before.startLine > 40, before  # its last entry
    for n, query in enumerate(("changelog", "where is the changelog?", "the release notes")):
        [hit] = located_hits(tmp_path / str(n), files, query, at_changelog_head)
        assert (hit.startLine, hit.endLine) == (1, 5), (query, hit)
        assert hit.snippet == (
            "1: # oak Change Log\n3: ## Version 17.2.0\n"
            "5: - feat: add idleTimeout for websocket (#702)"
        )


def test_a_changelog_query_asking_more_keeps_its_lines() -> None:
    assert asks_changelog_alone("changelog")
    assert asks_changelog_alone("Where is the CHANGELOG file?")
    assert not asks_changelog_alone("changelog for 17.1.0")
    assert not asks_changelog_alone("add a changelog entry for the etag fix")
    assert not asks_changelog_alone("where is the router defined")
