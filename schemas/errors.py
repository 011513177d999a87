"""The project's one exception root, and the schemas package's own.

RepoContextError           every error this project raises for a caller or an operator
├── SchemaError            schemas/
│   └── DecodeError        a log value that is not a valid event/record of its topic
├── ProcessorError         processors/errors.py
├── StreamsError           streams/errors.py
└── QueryApiError          query_api/errors.py

Each layer keeps its own root below this one (the layer rule: schemas <- processors <- streams
<- query_api), so a layer catches its own kinds, and the composition root catches
`RepoContextError` once to say any of them in one line. Exceptions that only carry control
flow inside one module (a closed mirror, a refused HTTP body, an unavailable evaluation rung)
stay private to it; `tests/test_exception_root.py` lists them.
"""


class RepoContextError(Exception):
    """Root of every error this project raises on purpose: its message is meant for a person."""


class SchemaError(RepoContextError):
    """Root of every error raised by schemas/."""


class DecodeError(SchemaError):
    """A stored value could not be decoded into the model its topic promises."""
