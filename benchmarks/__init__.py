"""Benchmarks: each benchmarks/bench_*.py module has a main() that prints its figures."""
