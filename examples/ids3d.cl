// ids3d(out): out[global_linear_id] = 1000 * group_linear_id + local_linear_id over
// a 3-D range: a map of how the range is cut into work-groups.
//
// The group linear id is built like the spec's local linear id, from
// get_group_id and get_num_groups: (gz * ny + gy) * nx + gx. The OpenCL C twin of
// ids3d.mlir; get_global_linear_id and get_local_linear_id are OpenCL C 2.0's.
//
// Build options: -cl-std=CL2.0
//
// Preconditions (the global linear id has the offsets removed):
//   out: global_size(0) * global_size(1) * global_size(2) elements
__kernel void ids3d(__global int *out)
{
    size_t group = (get_group_id(2) * get_num_groups(1) + get_group_id(1))
                       * get_num_groups(0)
                   + get_group_id(0);
    out[get_global_linear_id()] = (int)(group * 1000 + get_local_linear_id());
}
