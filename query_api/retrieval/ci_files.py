"""The CI configuration a question about CI asks for, though no word of it is in the files.

`where is the CI workflow` and `how is CI configured` are config questions
(path_roles.roles_about) whose subject is `ci`, and a CI file rarely writes that word: a
GitHub workflow is named for its job (`name: main`), a `.travis.yml` for nothing. QA on
PyCQA/flake8: `where is the CI workflow` put no file of .github/workflows/ in the first ten
(.pylintrc led, for its `confidence=` line), the one config search lifts needing to hold the
subject. So a config question naming CI is answered by the files CI services read, found by
their paths, and those holding the question's other words (`which workflow runs the tests on
CI`) lead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import partial

from query_api.retrieval.hit_details import PATH_REASON
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.read import files_with_path_words

# the words naming CI as a question's subject, each set whole: `CI`, `github actions`
_CI_NAMES = (
    frozenset({"ci"}),
    frozenset({"github", "actions"}),
    frozenset({"continuous", "integration"}),
)
# the path words of each CI service's files, read as phrases, then checked by _CI_PATH
_CI_PATH_WORDS = (
    "github workflows", "gitlab ci", "travis", "circleci", "azure pipelines", "appveyor",
    "drone", "bitbucket pipelines", "jenkinsfile",
)  # fmt: skip
_CI_PATH = re.compile(
    r"""(?:^|/)(?:
      \.github/workflows/[^/]+\.ya?ml
      |\.gitlab-ci\.ya?ml|\.travis\.ya?ml|\.circleci/config\.ya?ml|azure-pipelines\.ya?ml
      |\.?appveyor\.ya?ml|\.drone\.ya?ml|bitbucket-pipelines\.ya?ml|Jenkinsfile
    )$""",
    re.VERBOSE,
)
MAX_CI_FILES = 16  # paths read per service: a repository has a few workflows


def ci_words(words: Iterable[str]) -> frozenset[str]:
    """The words of a config question's subject that name CI (`ci`, `github actions`), none
    when it names no CI."""
    held = frozenset(words)
    return frozenset().union(*(name for name in _CI_NAMES if name <= held))


def is_ci_file(path: str) -> bool:
    """Whether `path` is a file a CI service reads its pipeline from."""
    return _CI_PATH.search(path) is not None


def ci_files(
    views: ViewStore,
    repo_id: str,
    hydrate: Callable[[str], t.SearchHit | None],
    words: Iterable[str],
) -> list[t.SearchHit]:
    """The CI files of the repository when `words` name CI (ci_words), as hits `hydrate`
    makes with the reason `path-name-match`, sorted by path; none otherwise."""
    if not ci_words(words):
        return []
    paths: set[str] = set()
    for phrase in _CI_PATH_WORDS:
        read = partial(files_with_path_words, repo_id=repo_id, name=phrase, limit=MAX_CI_FILES)
        paths |= {path for path in views.read(read) if is_ci_file(path)}
    out: list[t.SearchHit] = []
    for path in sorted(paths):
        hit = hydrate(path)
        if hit is not None:  # named by the question's word, as a path match is
            out.append(hit.model_copy(update={"reasons": [PATH_REASON, *hit.reasons]}))
    return out
