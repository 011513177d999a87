"""The retrieval ladder (vectors approximate -> exact -> BM25), hit details, the vector plane and
readiness.
"""
