"""Exception root of the query_api package.

    QueryApiError
    ├── ToolInputError      a caller's argument is wrong; the message names the argument
    ├── GuardError          a path escapes the workspace or no workspace root is configured
    ├── NotFoundError       the named repository or entry does not exist
    ├── ConflictError       the request conflicts with current state (e.g. a git-sourced repo)
    ├── ServiceUnavailable  a dependency is down; the message says what to do
    ├── AccessDenied        the caller lacks a grant; the message never echoes credentials
    └── UsageError          a command line is wrong (the CLI exits 2); names the option
Each becomes an MCP error result whose text tells the agent how to proceed, and in the CLI one
line on stderr with a non-zero exit.
"""

from schemas.errors import RepoContextError


class QueryApiError(RepoContextError):
    """Root of every error raised by query_api/."""


class ToolInputError(QueryApiError):
    pass


class GuardError(QueryApiError):
    pass


class NotFoundError(QueryApiError):
    pass


class ConflictError(QueryApiError):
    pass


class ServiceUnavailable(QueryApiError):
    pass


class UsageError(QueryApiError):
    pass


class AccessDenied(QueryApiError):
    """The caller lacks the grant; the message never echoes credentials."""
