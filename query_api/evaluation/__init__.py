"""repocontext eval: cases mined from a repository's git history, and the localisation metrics."""
