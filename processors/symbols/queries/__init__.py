"""Tree-sitter query files, one per language (package data; see ../extract.py)."""
