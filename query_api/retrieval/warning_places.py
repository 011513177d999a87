"""The place a pasted Python warning names: where it was issued.

Python's warnings module prints a warning as `path:line: Category: message`, the source line
quoted below it (`/site-packages/coverage/inorout.py:521: CoverageWarning: Module foo was
never imported. (module-not-imported)`), and pytest's warnings summary prints it alike,
indented. The place is the code an agent must read; read only as words, the category's name
ranked the file declaring it first: QA on nedbat/coveragepy ranked exceptions.py (`class
CoverageWarning`) above inorout.py, the file the warning names. As frames
(named_lines.frames) they rank their files first, at the place.
"""

from __future__ import annotations

import re

# `path.py:line: SomeWarning: ` at a line's start, with the source line quoted below it
_WARNING = re.compile(
    r"^[ \t]*((?:[A-Za-z]:)?[^\s:]+\.pyw?):(\d+):[ \t]+[A-Z]\w*Warning:[ \t]"
    r"[^\n]*(?:\n[ \t]+([^\n]*\S))?",
    re.MULTILINE,
)
PLACE_CHARS = 8000  # characters of a query read for them, as named_lines reads places


def warning_frames(text: str) -> list[tuple[str, int, str]]:
    """The (path, line, the code quoted for it) of each Python warning in `text`, in the
    order written."""
    return [
        (m.group(1).replace("\\", "/"), int(m.group(2)), (m.group(3) or "").strip())
        for m in _WARNING.finditer(text[:PLACE_CHARS])
    ]
