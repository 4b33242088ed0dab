"""The pieces of `scripts/bench.py` (see its docstring): the problems, the
implementations, timing, compile latency and the report; `bench.py` itself parses
the arguments, sets up the environment and runs the suite."""
