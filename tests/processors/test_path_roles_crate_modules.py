"""A Rust crate's module in a folder named like benchmarks (`src/benchmark/runner.rs`, a
benchmarking tool's runner) is the crate's source; Cargo's benchmarks live in `benches/`
(path_roles.role_of). QA on sharkdp/hyperfine, whose src/benchmark/ was pushed down."""

from __future__ import annotations

from processors.path_roles import Role, role_of


def test_a_crates_module_named_benchmark_is_source() -> None:
    assert role_of("src/benchmark/runner.rs") == Role.SOURCE
    assert role_of("src/benchmark/mod.rs") == Role.SOURCE
    assert role_of("crates/core/src/bench/stats.rs") == Role.SOURCE
    assert role_of("src/perf/counters.rs") == Role.SOURCE


def test_cargo_benchmarks_stay_benchmarks() -> None:
    assert role_of("benches/startup.rs") == Role.BENCH
    assert role_of("crates/core/benches/parse.rs") == Role.BENCH
    assert role_of("bench/src/main.rs") == Role.BENCH  # a benchmark crate of its own


def test_other_languages_benchmark_folders_are_unchanged() -> None:
    assert role_of("packages/lib/src/benchmarks/index.ts") == Role.BENCH
    assert role_of("src/bench/bench_main.cpp") == Role.BENCH
    assert role_of("src/benchmark/runner.py") == Role.BENCH
