/* reduce: partial[g] = the sum of input[g * group .. g * group + group - 1], one sum
   per group of `group` elements, the last group possibly shorter
   (examples/reduce.mlir with work-groups of `group`). The inner sum is an OpenMP SIMD
   reduction: the compiler may add in any order, as the kernel's tree does. */
void reduce(const float *restrict input, float *restrict partial, long n,
            long group) {
  long groups = (n + group - 1) / group;
#pragma omp parallel for
  for (long g = 0; g < groups; g++) {
    long begin = g * group;
    long end = begin + group < n ? begin + group : n;
    float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
    for (long i = begin; i < end; i++)
      sum += input[i];
    partial[g] = sum;
  }
}
