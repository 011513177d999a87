"""Who may do what: bearer tokens and grants, the caller's read scope, repository binding, the
workspace guard and repository-relative paths.
"""
