"""Symbols and cross-references of source files, from tree-sitter (see extract.py)."""
