"""What a tool answer puts on the wire: the structured JSON and the text rendering for a model."""
