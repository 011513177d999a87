"""Exception root of the processors package.

ProcessorError
└── UnprocessableEvent   this event can never be processed (it goes to the dead letters)
"""

from schemas.errors import RepoContextError


class ProcessorError(RepoContextError):
    """Root of every error raised by processors/."""


class UnprocessableEvent(ProcessorError):
    """The event is malformed for this processor; retrying cannot help."""
