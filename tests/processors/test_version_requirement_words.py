"""`where is the python version requirement declared` asks about the manifest's
`requires-python` as `what python version is required` does: the noun `requirement` is the
verb's. QA on python-jsonschema/jsonschema: it was no config question and pyproject.toml
(`requires-python = ">=3.10"`) was not in the first ten, below validators.py's
`_LATEST_VERSION` and two scripts' `#!/usr/bin/env python3`."""

from __future__ import annotations

import pytest

from processors.path_roles import Role, roles_about


@pytest.mark.parametrize(
    "query",
    [
        "where is the python version requirement declared",
        "what are the python version requirements?",
        "where is the node version requirement",
        "where is the java version requirement set",
    ],
)
def test_a_version_requirement_is_a_config_question(query: str) -> None:
    assert Role.CONFIG in roles_about(query), query


def test_a_change_request_is_not() -> None:
    assert Role.CONFIG not in roles_about("Raise the python version requirement to 3.10")
