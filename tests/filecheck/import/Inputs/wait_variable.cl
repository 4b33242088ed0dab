// wait_group_events with a count only known at run time: refused by name.
__kernel void k(__local float *tile, __global const float *in, int n) {
  event_t e[2];
  e[0] = async_work_group_copy(tile, in, 16, 0);
  e[1] = async_work_group_copy(tile + 16, in + 16, 16, 0);
  wait_group_events(n, e);
}
