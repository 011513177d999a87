"""The localisation benchmark: does a search put the files a change touched first?

`python -m tests.bench.localisation mine` mines cases.jsonl from pinned git mirrors;
`python -m tests.bench.localisation run` scores repocontext and the baselines on them.
See docs/benchmarks.md.
"""
