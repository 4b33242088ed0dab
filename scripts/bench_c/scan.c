/* scan: inclusive prefix sums of i32 restarting at every group of `group` elements
   (examples/scan.mlir with work-groups of `group`), one group after the other along
   each thread's share of the groups. */
void scan(const int *restrict input, int *restrict output, long n, long group) {
  long groups = (n + group - 1) / group;
#pragma omp parallel for
  for (long g = 0; g < groups; g++) {
    long begin = g * group;
    long end = begin + group < n ? begin + group : n;
    int sum = 0;
    for (long i = begin; i < end; i++) {
      sum += input[i];
      output[i] = sum;
    }
  }
}
