typedef unsigned int uint; typedef unsigned long size_t;
typedef float float4 __attribute__((ext_vector_type(4)));
__kernel __attribute__((work_group_size_hint(16, 1, 1)))
void scale4(__global float4 *v, __global const float *s, __constant float *k) {
  size_t i = get_global_id(0);
  float4 x = v[i];
  x = x * s[i] + k[0];
  x.xy = x.yx;
  v[i] = x + (float4)(x.w, 0.0f, 1.0f, 2.0f);
}
