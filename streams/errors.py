"""Exception root of the streams package.

StreamsError
├── EventLogError        the log rejected or could not serve a request
│   └── UnknownTopicError
├── SourceError          a source could not read its repository
└── StoreError           a view/vector store could not apply or answer
"""


class StreamsError(Exception):
    """Root of every error raised by streams/."""


class EventLogError(StreamsError):
    pass


class UnknownTopicError(EventLogError):
    pass


class SourceError(StreamsError):
    pass


class StoreError(StreamsError):
    pass
