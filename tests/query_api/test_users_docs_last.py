"""The users of a name a doc's code holds (a docs site's bundle) come after the code's and
the tests'. QA on sinclairzx81/typebox: `what calls Format.Set` and `where is Settings.Set
used` placed docs/index.js, the docs site's 1 MB minified bundle, first."""

from __future__ import annotations

from query_api.retrieval.users_first import users_order


def test_a_docs_bundle_is_ordered_after_the_code_and_tests() -> None:
    counts = {"docs/index.js": 12, "test/format.ts": 1, "src/app.ts": 1, "src/format/set.ts": 3}
    assert users_order(counts, {"src/format/set.ts"}) == [
        "src/app.ts",
        "src/format/set.ts",
        "test/format.ts",
        "docs/index.js",
    ]
