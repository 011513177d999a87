"""A pasted exception group's traceback read as the plain tracebacks it holds.

Python (3.11+) prints an ExceptionGroup's traceback, and each of its sub-exceptions', behind
a gutter: `  | ` opens every frame, quoted line and error line, `  + Exception Group
Traceback ...` the group, and `  +-+---- 1 ----` rules divide the sub-exceptions. Read as
written, each frame quoted `|     return cl(obj)`, which no line of the file holds, and no
error line opened with its class (`| ValueError: ...`). QA on python-attrs/cattrs: a pasted
ClassValidationError's trace said converters.py line 716 "holds other code than the traceback
quotes" where it holds `return cl(obj)`, and its ForbiddenExtraKeysError's message, which
errors.py writes, was "written by no file here". Behind the gutter each traceback is printed
as a plain one, so taking the gutter and the rules off, and the group's header and the count
Python appends to its message (`While structuring Outer (2 sub-exceptions)`, no file's words)
read as a plain traceback's, leaves what the readers of a plain traceback expect.
"""

from __future__ import annotations

import re

# the header Python prints for a group; nothing else writes it
_GROUP = re.compile(r"^[ \t]*\+?[ \t]*Exception Group Traceback \(most recent call last\):", re.M)
# a rule between sub-exceptions (`  +-+---------------- 1 ----------------`), or closing them
_RULE = re.compile(r"^[ \t]*\+[-+]*-{4,}[^\n]*$", re.M)
# the gutter opening a line: its indent, `|` or `+`, and the one space after it
_GUTTER = re.compile(r"^[ \t]*[|+] ?", re.M)
_HEADER = re.compile(r"Exception Group Traceback(?= \(most recent call last\):)")
_COUNT = re.compile(r"[ \t]+\(\d+ sub-exceptions?\)[ \t]*$", re.M)


def without_gutters(text: str) -> str:
    """`text` with an exception group's gutters and rules taken off its lines, when it pastes
    one (its `Exception Group Traceback` header); any other text as it is."""
    if _GROUP.search(text) is None:
        return text
    plain = _GUTTER.sub("", _RULE.sub("", text))
    return _COUNT.sub("", _HEADER.sub("Traceback", plain))
