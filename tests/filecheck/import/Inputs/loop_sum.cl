typedef unsigned int uint; typedef unsigned long size_t;
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void loop_sum(__global const int *in, __global int *out, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += in[i] * (i & 3);
  out[0] = s;
}
