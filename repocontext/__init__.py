"""The composition root: the repocontext CLI, its process commands and the app they build."""
