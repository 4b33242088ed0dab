/* The number of OpenMP threads the other functions of the benchmark library use
   (scripts/bench.py --threads). */
#include <omp.h>

void bench_set_threads(int threads) { omp_set_num_threads(threads); }

int bench_max_threads(void) { return omp_get_max_threads(); }
