"""The SQLite views: the store, its registry of tables and topic handlers, and the read and search
modules.
"""
