"""Write guards for memory (spec §1.5): leaked tool-call framing, credential URLs, link keys.

Each guard returns None or a message naming what it rejected; messages never echo the
credential itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from processors.secrets import PASSWORD_URL
from schemas.memory import well_formed_key

# The argument names of remember/update: a trailing run of these as tags means the model
# leaked its own tool-call framing into the body.
ARGUMENT_NAMES = frozenset(
    {
        "repoId",
        "topic",
        "id",
        "kind",
        "title",
        "body",
        "author",
        "provenance",
        "tags",
        "addLinks",
        "removeLinks",
        "ttlSeconds",
        "fencingToken",
        "key",
        "fields",
        "addTags",
        "removeTags",
    }
)
WRAPPERS = frozenset(
    {
        "invoke",
        "parameter",
        "function_calls",
        "antml:invoke",
        "antml:parameter",
        "antml:function_calls",
        "tool_call",
        "tool_use",
        "function_call",
        "arguments",
        "args",
    }
)
_TAG = re.compile(r"<(/?)([A-Za-z_][\w:.-]*)((?:\s+[^<>]*)?)/?>")
_NAME_ATTR = re.compile(r"""name\s*=\s*["']([^"']+)["']""")


def leaked_framing(text: str) -> str | None:
    """A message when `text` ends in a run of ≥2 framing tags (incl. a closing one), else None.

    The run is the longest tail of the text whose tags all name the tool's own arguments or
    invoke/parameter-style wrappers (values between them are allowed: that is what leaks),
    ending with a tag.
    """
    tail = text.rstrip()
    tags = list(_TAG.finditer(tail))
    if not tags or tags[-1].end() != len(tail):
        return None
    run: list[re.Match[str]] = []
    for m in reversed(tags):
        if m.group(2) not in ARGUMENT_NAMES and m.group(2) not in WRAPPERS:
            break
        run.append(m)
    if len(run) < 2 or not any(m.group(1) == "/" for m in run):
        return None
    swallowed: list[str] = []
    for m in reversed(run):
        name, attrs = m.group(2), m.group(3) or ""
        names = [name] if name in ARGUMENT_NAMES else _NAME_ATTR.findall(attrs)
        for n in names:
            if n not in swallowed:
                swallowed.append(n)
    which = ", ".join(swallowed) if swallowed else "none named"
    return (
        "ends in leaked tool-call framing (a trailing run of argument/invoke tags); remove it "
        f"and pass those values as real arguments (swallowed arguments: {which})"
    )


def has_credential_url(text: str) -> bool:
    return PASSWORD_URL.search(text) is not None


def check_fields(fields: Mapping[str, str]) -> str | None:
    """The first guard failure over scalar fields, as `field: message`."""
    for name, value in fields.items():
        if name == "body" or name == "title":
            problem = leaked_framing(value)
            if problem:
                return f"`{name}` {problem}"
        if has_credential_url(value):
            return (
                f"`{name}` contains a URL with a password in its userinfo; remove the "
                "credential before remembering it"
            )
    return None


def check_links(argument: str, links: Mapping[str, Iterable[str]]) -> str | None:
    for relation, targets in links.items():
        if not relation or "/" in relation or len(relation) > 128:
            return f"`{argument}`: relation {relation[:64]!r} is not a valid relation name"
        for i, target in enumerate(targets):
            if not isinstance(target, str) or not well_formed_key(target):
                shown = str(target)[:200]
                return (
                    f"`{argument}.{relation}[{i}]`: {shown!r} is not a well-formed key "
                    "(expected repo/{repoId} or repo/{repoId}/{file|symbol|mem|pkg|...}/...)"
                )
    return None
