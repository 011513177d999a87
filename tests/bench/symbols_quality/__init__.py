"""Symbol quality: our declarations against independent extractors on pinned real repositories.

    .venv/bin/python -m tests.bench.symbols_quality run [--max-files 300] [--language L ...]

See docs/symbols.md for the method, the table and what each language's numbers mean.
"""
