"""Exception root of the schemas package.

SchemaError
└── DecodeError      a log value that is not a valid event/record of its topic
"""


class SchemaError(Exception):
    """Root of every error raised by schemas/."""


class DecodeError(SchemaError):
    """A stored value could not be decoded into the model its topic promises."""
