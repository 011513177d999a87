"""Everything that moves or stores events and records."""
