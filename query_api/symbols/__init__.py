"""The symbol tools (outline, related, changed) and dependents resolution, TS/JS modules and path
aliases included.
"""
