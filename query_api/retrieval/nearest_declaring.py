"""Which of the files declaring a name each test using it tests: the nearest.

A question about a name's tests (`which tests cover useActor`) gives each file declaring the
name the test files calling it (ladder._tests_using). In a monorepo each package declares
its own `useActor`, and its tests call that one: given every test, each declaring file claims
the others' tests too, and the first ranked (xstate-vue's, QA on statelyai/xstate) was said to
be tested by packages/xstate-react/test/useActor.test.tsx and xstate-solid's, ranked above
its own test. A test belongs to the declaring files sharing the most leading folders with it
(its package's); where several share as many (one package, tests in a tests/ folder), all.
"""

from __future__ import annotations

from collections.abc import Iterable


def nearest_declaring(declaring: Iterable[str], tests: Iterable[str]) -> dict[str, list[str]]:
    """Each path of `declaring` -> the paths of `tests` nearest it (module doc), in order;
    a declaring file no test is nearest is left out."""
    sources = sorted(declaring)
    out: dict[str, list[str]] = {}
    for test in tests:
        shared = {source: _shared_folders(source, test) for source in sources}
        most = max(shared.values(), default=0)
        for source in sources:
            if shared[source] == most:
                out.setdefault(source, []).append(test)
    return out


def _shared_folders(a: str, b: str) -> int:
    """How many leading folders the paths `a` and `b` share."""
    count = 0
    for left, right in zip(a.split("/")[:-1], b.split("/")[:-1], strict=False):
        if left != right:
            break
        count += 1
    return count
