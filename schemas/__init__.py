"""Pydantic models and names shared by every layer: events, records, topics, tool I/O."""
