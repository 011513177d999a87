"""What a bundle says of a file whose search hit lies past the text the views store.

The views keep a file's first 64 Ki characters (the reference's cap on what the tools
return); search reads the whole file and may point past that cut (QA on sharkdp/fd, 79ce055).
A bundle can send only the stored text, so it sent such a file's spans chosen by the task's
words, with nothing saying the code the hit named was left out: QA on apache/commons-text,
`TextStringBuilder.lastIndexOf("") returns incorrect index` at 4,000 tokens sent its `append`
overloads (lines 567-661) while `lastIndexOf` is at lines 2405-2433. The answer's note names
each such file and its hit's lines, so an agent reads them from the file; it is one of the
answer's fields before packing, so the plan keeps its room.
"""

from __future__ import annotations

LISTED = 3  # files the note names; the rest are counted


def past_stored_note(hits: list[tuple[str, tuple[int, int], int]]) -> str | None:
    """The note for the files whose search hit starts past the line their stored text stops
    in (`hits`: path, the hit's first and last line, that line), or None when there is none."""
    found = [f"{path} {a}-{z}" for path, (a, z), stored in hits if a > stored]
    if not found:
        return None
    more = len(found) - LISTED
    named = ", ".join(found[:LISTED]) + (f" and {more} more" if more > 0 else "")
    return f"the search's hit in {named} is past the stored text: read those lines from the file"
