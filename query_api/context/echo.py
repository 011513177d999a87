"""The task as a bundle echoes it (the reference's `task` field).

The caller wrote the task and holds it; the echo only tells which request an answer is for.
Echoed whole, a change request's paragraph (60 words, about 90 tokens) took a twentieth of a
2,000-token answer, and a 16,384-character task took 3,700 tokens of 8,192. So a task longer
than ECHO_CHARS is echoed as its first words and an ellipsis. The answer is planned with the
whole task in it and shortened once packed: the plan's choices (how many files, one
declaration a file or several) were chosen with the echo whole, and a shorter one changed
them; so the search, the spans and the code sent are what they were. Only its first
PLANNED_CHARS count in the plan: a 16,384-character task had left 956 tokens of code of 8,192.
"""

from __future__ import annotations

ECHO_CHARS = 100  # about 20 tokens of English: enough to tell one request from another
ELLIPSIS = " …"
# of the task, what the plan counts as echoed: more than any change request's paragraph
PLANNED_CHARS = 2000


def task_echo(task: str) -> str:
    """`task` as given when it is short; else its first words, whitespace runs made one
    space, cut at a word boundary within ECHO_CHARS, and an ellipsis."""
    if len(task) <= ECHO_CHARS:
        return task
    text = " ".join(task.split())
    if len(text) <= ECHO_CHARS:
        return text
    head = text[: ECHO_CHARS + 1]
    cut = head.rsplit(" ", 1)[0] if " " in head else head[:ECHO_CHARS]
    return cut.rstrip() + ELLIPSIS
