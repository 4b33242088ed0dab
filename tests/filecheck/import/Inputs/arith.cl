typedef unsigned int uint; typedef unsigned long size_t;
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void arith(__global const float *x, __global const int *y, __global float *fo,
           __global int *io, __global uint *uo, int n) {
  for (int i = 0; i < n; ++i) {
    float a = x[i];
    int b = y[i];
    fo[i] = fabs(a) * 2.0f + fmax(a, 0.5f) - (a < 0.0f ? a / 3.0f : (float)(b >> 2));
    io[i] = max(b, -7) + (b % 5) + (int)a + min(b, 9) * 3;
    uo[i] = ((uint)b >> 3) ^ (uint)(b << 2) | (uint)abs(b);
  }
}
