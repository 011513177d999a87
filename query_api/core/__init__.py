"""The core tools: health, repositories, index status and search (RepoContextService), bootstrap,
refresh and eval.
"""
