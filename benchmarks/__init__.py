"""Benchmark scripts (run as ``python -m benchmarks.<name>``); they print figures, never assert timings."""
