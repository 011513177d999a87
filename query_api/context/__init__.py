"""repocontext_context: the token-budgeted bundle, its budget plan and the line spans it sends."""
