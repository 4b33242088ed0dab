typedef unsigned int uint; typedef unsigned long size_t;
__kernel void classify(__global const int *in, __global float *out, int n) {
  for (int i = 0; i < n; ++i) {
    float r;
    switch (in[i] & 7) {
      case 0: r = 1.5f; break;
      case 1: r = -2.0f; break;
      case 3: r = (float)in[i]; break;
      case 5: r = 0.1f * (float)i; break;
      default: r = 0.0f;
    }
    out[i] = r;
  }
}
