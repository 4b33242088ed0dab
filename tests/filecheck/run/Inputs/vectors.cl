// madd4(a, b, c): b[i] = a[i] * c + a[i].wzyx, on int4 buffers and an int4 by value.
kernel void madd4(global const int4 *a, global int4 *b, int4 c) {
  int i = get_global_id(0);
  b[i] = a[i] * c + a[i].wzyx;
}

typedef struct { int scale; long offset; } params_t;

kernel void with_struct(global long *out, params_t p) {
  int i = get_global_id(0);
  out[i] = p.scale * (long)i + p.offset;
}
