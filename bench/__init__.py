"""gamehall's benchmarks: each ``bench_*.py`` module returns figures; ``python -m bench`` runs all."""
