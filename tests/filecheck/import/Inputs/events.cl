// Events as clang makes them: target("spirv.Event") values in an array (stored 8
// bytes apart), chosen by a select and a phi, passed to and returned by a function,
// and the event 0.
__attribute__((noinline)) event_t fetch(__local float *tile, __global const float *g,
                                        size_t n, event_t after) {
  return async_work_group_copy(tile, g, n, after);
}

__kernel void events(__global float *in, __global float *out, __local float *tile,
                     int c) {
  event_t list[2];
  event_t a = async_work_group_copy(tile, in, 16, 0);
  event_t b = async_work_group_copy(tile + 16, in + 16, 16, 0);
  list[0] = c > 1 ? a : b;
  if (c)
    list[1] = fetch(tile + 32, in + 32, 16, a);
  else
    list[1] = async_work_group_strided_copy(tile + 32, in + 64, 16, 2, b);
  wait_group_events(2, list);
  out[get_global_id(0)] = tile[get_local_id(0)];
}
