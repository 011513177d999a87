"""`repocontext_bootstrap`: the single-repository onboarding verb (spec §1.5).

The same async, idempotent onboarding as add_repo, under the reference's single-repo name
and parameters (`repoRoot` + `repoId`, both required).
"""

from __future__ import annotations

from query_api.core.service import RepoContextService
from schemas import memory_tools as m
from schemas import tools as t


class Onboarding:
    def __init__(self, core: RepoContextService) -> None:
        self.core = core

    async def bootstrap(self, args: m.BootstrapArgs) -> t.IndexStatus:
        return await self.core.add_repo(
            t.AddRepoArgs(
                path=args.repoRoot,
                repoId=args.repoId,
                includeGlobs=args.includeGlobs,
                excludeGlobs=args.excludeGlobs,
                respectGitignore=args.respectGitignore,
                excludeBinary=args.excludeBinary,
            )
        )
