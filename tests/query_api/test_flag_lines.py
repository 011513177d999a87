"""A question about a command-line flag points each file declaring it at the declaration: QA
on mitsuhiko/insta pointed cargo-insta's cli.rs at `show_undiscovered_hint` for `where is the
--include-ignored flag defined`, and at a unit test for `where is the --accept flag handled in
cargo insta test`, not at the clap fields declaring them (flag_lines.at_flag_declarations)."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.flag_lines import asked_flags, at_flag_declarations
from tests.query_api.located import located_hits

CLI = "\n".join(
    [
        "use clap::{Args, Parser};",  # 1
        "",
        "#[derive(Args, Debug)]",  # 3
        "struct TargetArgs {",  # 4
        "    /// Also walk into ignored paths.",  # 5
        '    #[arg(long, alias = "no-ignore")]',  # 6
        "    include_ignored: bool,",  # 7
        "}",  # 8
        "",
        "#[derive(Args, Debug)]",  # 10
        "struct TestCommand {",  # 11
        "    /// Accept all snapshots after test.",  # 12
        "    #[arg(long)]",  # 13
        "    accept: bool,",  # 14
        "}",  # 15
        "",
        "fn show_hint(flags: FindFlags) {",  # 17
        "    // nothing to do if we already include ignored paths",  # 18
        "    if flags.include_ignored && flags.include_hidden {",  # 19
        "        return;",  # 20
        "    }",  # 21
        "}",  # 22
        "",
        "fn run(cmd: TestCommand) {",  # 24
        "    if cmd.accept { accept_all(); }",  # 25
        "}",  # 26
        "",
        "#[cfg(test)]",  # 28
        "mod tests {",  # 29
        "    #[test]",  # 30
        "    fn test_accept_flag_in_cargo_insta_test() {",  # 31
        "        // cargo insta test --accept: the accept flag is handled",  # 32
        '        assert!(parse(&["test", "--accept"]).accept);',  # 33
        "    }",  # 34
        "}",  # 35
        "",
    ]
)

CLICK = "\n".join(
    [
        "import click",  # 1
        "",
        "",
        "@click.command()",  # 4
        '@click.option("--dry-run", is_flag=True, help="Show what would change.")',  # 5
        "def main(dry_run: bool) -> None:",  # 6
        "    if dry_run:",  # 7
        '        click.echo("dry run: nothing written")',  # 8
        "",
    ]
)


def test_a_flag_question_points_at_the_field_declaring_it(tmp_path: Path) -> None:
    query = "where is the --include-ignored flag defined"
    [hit] = located_hits(tmp_path, {"src/cli.rs": CLI}, query, at_flag_declarations)
    assert (hit.startLine, hit.endLine) == (5, 7), hit
    assert hit.snippet is not None and hit.snippet.endswith("7: include_ignored: bool,"), hit


def test_a_flag_question_naming_test_is_not_sent_to_the_unit_tests(tmp_path: Path) -> None:
    query = "where is the --accept flag handled in cargo insta test"
    [hit] = located_hits(tmp_path, {"src/cli.rs": CLI}, query, at_flag_declarations)
    assert (hit.startLine, hit.endLine) == (12, 14), hit


def test_a_flag_declared_as_a_literal(tmp_path: Path) -> None:
    query = "where is the `--dry-run` option?"
    [hit] = located_hits(tmp_path, {"src/tool/cli.py": CLICK}, query, at_flag_declarations)
    assert (hit.startLine, hit.endLine) == (5, 5), hit


def test_only_questions_about_one_or_two_flags() -> None:
    assert asked_flags("where is the --include-ignored flag defined") == ["include-ignored"]
    assert asked_flags("Fix `--unreferenced` flag") == []  # a change request
    assert asked_flags("how does `cargo insta test --accept --review --check -q` work") == []
