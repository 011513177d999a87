"""The users of a static member the query names with its type (`what calls
ValidationTypes.isValid`) are the files calling it through that type.

A member whose declarations no import-qualified reference reaches falls back to every file
referencing its name (users_first.bare_callers), and a one-word name is another type's member
as often: QA on typestack/class-validator, `what calls ValidationTypes.isValid` placed
IsPhoneNumber.ts, whose `phoneNumber.isValid()` is libphonenumber's, beside
register-decorator.ts, the one caller of `ValidationTypes.isValid(...)`. A static member is
never called through a value, so its type written before it tells its calls from another's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from query_api.retrieval.users_first import is_static, last_part, member_users, qualifier
from streams.stores import ViewStore
from streams.stores.views.symbols import SymbolRow

Uses = TypeVar("Uses")


def through_type(
    views: ViewStore,
    repo_id: str,
    name: str,
    declared: Sequence[SymbolRow],
    found: Mapping[str, Uses],
) -> dict[str, Uses]:
    """`found` (files -> their uses) less the files not writing `Type.member` when `name` is
    qualified and every declaration of it is static; `found` as it is otherwise."""
    owner = qualifier(name)
    if owner is None or not declared or not all(is_static(row.signature) for row in declared):
        return dict(found)
    bodies = {}
    for path in found:
        row = views.get_content(repo_id, path)
        if row is not None:
            bodies[path] = row.body
    through = member_users(last_part(name), bodies, through=last_part(owner))
    return {path: uses for path, uses in found.items() if path in through}
