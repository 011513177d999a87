"""`which functions call print_error`, `where does fd call print_error`, `where do we use X`
ask for the users of a name as `what calls print_error` does. QA on sharkdp/fd: both were no
users query, and error.rs, the declaring file, came first; the callers (walk.rs with four
calls, exec/command.rs, exec/job.rs, main.rs, cli.rs) were not placed first nor pointed at
their calls."""

from __future__ import annotations

from query_api.retrieval.users_first import used_name


def test_more_wordings_ask_for_the_users_of_a_name() -> None:
    assert used_name("which functions call print_error") == "print_error"
    assert used_name("which files use ExitCode?") == "ExitCode"
    assert used_name("where does fd call print_error") == "print_error"
    assert used_name("where do we use strip_current_dir?") == "strip_current_dir"
    assert used_name("where does the walker invoke DirEntry::normal") == "DirEntry::normal"
    # as before
    assert used_name("what calls print_error") == "print_error"
    assert used_name("which test calls print_error") == "print_error"
    # a question about something else
    assert used_name("where does fd call the pager when output is long") is None
    assert used_name("which functions print errors") is None
