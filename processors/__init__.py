"""Pure transformations: event -> records. No I/O, no clock reads, no environment."""
