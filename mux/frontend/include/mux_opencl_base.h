/* The OpenCL C base types and macros, as the OpenCL C specification defines them
 * (sections "Supported Data Types", "Synchronization Functions", "Atomic
 * Functions", "Math Constants", "Macros and Limits"), written for this project.
 *
 * mux/frontend/clang.py includes it ahead of every OpenCL C source, with
 * `-cl-no-stdinc -Xclang -fdeclare-opencl-builtins`: clang declares the builtin
 * functions itself from its tables and this header gives the types and macros
 * those declarations and kernels name. Every clang we run (a Debian clang, the
 * ziglang wheel's, which has no header of its own) sees the same definitions.
 *
 * Builtin types of clang's OpenCL mode are not here: bool, half, event_t,
 * sampler_t, the image types, queue_t, clk_event_t, reserve_id_t, and the
 * atomic types of 2.0 (atomic_int .. atomic_flag).
 * Not yet here: image channel order/type constants (CLK_R, CLK_UNORM_INT8, ...),
 * device-side enqueue (ndrange_t, CLK_ENQUEUE_FLAGS_*), the M_*_H constants.
 */
#ifndef MUX_OPENCL_BASE_H
#define MUX_OPENCL_BASE_H

/* ---- Scalar types (6.1.1) ---------------------------------------------- */
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
/* 64-bit on spir64: clang's own spellings keep the mangling (size_t -> m). */
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef __INTPTR_TYPE__ intptr_t;
typedef __UINTPTR_TYPE__ uintptr_t;

/* ---- Vector types (6.1.2): n = 2, 3, 4, 8, 16 --------------------------- */
#define MUX_VECTORS(T)                                                         \
  typedef T T##2 __attribute__((ext_vector_type(2)));                          \
  typedef T T##3 __attribute__((ext_vector_type(3)));                          \
  typedef T T##4 __attribute__((ext_vector_type(4)));                          \
  typedef T T##8 __attribute__((ext_vector_type(8)));                          \
  typedef T T##16 __attribute__((ext_vector_type(16)));
MUX_VECTORS(char)
MUX_VECTORS(uchar)
MUX_VECTORS(short)
MUX_VECTORS(ushort)
MUX_VECTORS(int)
MUX_VECTORS(uint)
MUX_VECTORS(long)
MUX_VECTORS(ulong)
MUX_VECTORS(float)
#if defined(cl_khr_fp64) || defined(__opencl_c_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
MUX_VECTORS(double)
#endif
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
MUX_VECTORS(half)
#endif
#undef MUX_VECTORS

/* ---- Fences (6.15.9 / barrier) ------------------------------------------ */
/* The flags' values are not the spec's to give: these are the SPIR encoding,
 * which lower-to-mux-builtins decodes. */
typedef uint cl_mem_fence_flags;
#define CLK_LOCAL_MEM_FENCE 0x01
#define CLK_GLOBAL_MEM_FENCE 0x02
#if __OPENCL_C_VERSION__ >= 200
#define CLK_IMAGE_MEM_FENCE 0x04
#endif

/* ---- Memory order and scope, atomic types (OpenCL C 2.0+) --------------- */
/* clang's builtin tables name the enum types memory_order and memory_scope
 * (they appear in the mangled names); the values are the ones clang's
 * __opencl_atomic_* builtins take. */
#if __OPENCL_C_VERSION__ >= 200
/* Which orders and scopes exist: all of them in 2.0; in 3.0 those whose
 * optional feature the compiler reports. */
#if __OPENCL_C_VERSION__ == 200
#define MUX_ORDER_ACQ_REL 1
#define MUX_ORDER_SEQ_CST 1
#define MUX_SCOPE_DEVICE 1
#define MUX_SCOPE_ALL 1
#else
#ifdef __opencl_c_atomic_order_acq_rel
#define MUX_ORDER_ACQ_REL 1
#endif
#ifdef __opencl_c_atomic_order_seq_cst
#define MUX_ORDER_SEQ_CST 1
#endif
#ifdef __opencl_c_atomic_scope_device
#define MUX_SCOPE_DEVICE 1
#endif
#ifdef __opencl_c_atomic_scope_all_devices
#define MUX_SCOPE_ALL 1
#endif
#endif

typedef enum memory_order {
  memory_order_relaxed = __ATOMIC_RELAXED,
  memory_order_acquire = __ATOMIC_ACQUIRE,
  memory_order_release = __ATOMIC_RELEASE,
#ifdef MUX_ORDER_ACQ_REL
  memory_order_acq_rel = __ATOMIC_ACQ_REL,
#endif
#ifdef MUX_ORDER_SEQ_CST
  memory_order_seq_cst = __ATOMIC_SEQ_CST,
#endif
} memory_order;

typedef enum memory_scope {
  memory_scope_work_item = __OPENCL_MEMORY_SCOPE_WORK_ITEM,
  memory_scope_work_group = __OPENCL_MEMORY_SCOPE_WORK_GROUP,
#ifdef MUX_SCOPE_DEVICE
  memory_scope_device = __OPENCL_MEMORY_SCOPE_DEVICE,
#endif
#ifdef MUX_SCOPE_ALL
  memory_scope_all_svm_devices = __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES,
#if __OPENCL_C_VERSION__ >= 300
  memory_scope_all_devices = memory_scope_all_svm_devices,
#endif
#endif
#if defined(cl_khr_subgroups) || defined(__opencl_c_subgroups)
  memory_scope_sub_group = __OPENCL_MEMORY_SCOPE_SUB_GROUP,
#endif
} memory_scope;
#undef MUX_ORDER_ACQ_REL
#undef MUX_ORDER_SEQ_CST
#undef MUX_SCOPE_DEVICE
#undef MUX_SCOPE_ALL

#define ATOMIC_VAR_INIT(value) (value)
#define ATOMIC_FLAG_INIT 0
#endif

/* ---- Which builtin functions clang declares ------------------------------ */
/* -fdeclare-opencl-builtins keys some overload sets on these two internal
 * macros (not spec names): pointer arguments in the named address spaces
 * where there is no generic one, and the sub-group functions. */
#if !defined(__opencl_c_generic_address_space)
#define __opencl_c_named_address_space_builtins 1
#endif
#if defined(cl_khr_subgroups) || defined(__opencl_c_subgroups)
#define __opencl_subgroup_builtins 1
#endif

/* ---- Integer limits ----------------------------------------------------- */
#define CHAR_BIT 8
#define SCHAR_MAX 127
#define SCHAR_MIN (-127 - 1)
#define UCHAR_MAX 255
#define CHAR_MAX SCHAR_MAX
#define CHAR_MIN SCHAR_MIN
#define SHRT_MAX 32767
#define SHRT_MIN (-32767 - 1)
#define USHRT_MAX 65535
#define INT_MAX 2147483647
#define INT_MIN (-2147483647 - 1)
#define UINT_MAX 0xffffffffU
#define LONG_MAX 0x7fffffffffffffffL
#define LONG_MIN (-0x7fffffffffffffffL - 1)
#define ULONG_MAX 0xffffffffffffffffUL

/* ---- Floating-point limits ---------------------------------------------- */
#define FLT_DIG 6
#define FLT_MANT_DIG 24
#define FLT_MAX_10_EXP +38
#define FLT_MAX_EXP +128
#define FLT_MIN_10_EXP -37
#define FLT_MIN_EXP -125
#define FLT_RADIX 2
#define FLT_MAX 0x1.fffffep127f
#define FLT_MIN 0x1.0p-126f
#define FLT_EPSILON 0x1.0p-23f

#if defined(cl_khr_fp64) || defined(__opencl_c_fp64)
#define DBL_DIG 15
#define DBL_MANT_DIG 53
#define DBL_MAX_10_EXP +308
#define DBL_MAX_EXP +1024
#define DBL_MIN_10_EXP -307
#define DBL_MIN_EXP -1021
#define DBL_MAX 0x1.fffffffffffffp1023
#define DBL_MIN 0x1.0p-1022
#define DBL_EPSILON 0x1.0p-52
#endif

#ifdef cl_khr_fp16
#define HALF_DIG 3
#define HALF_MANT_DIG 11
#define HALF_MAX_10_EXP +4
#define HALF_MAX_EXP +16
#define HALF_MIN_10_EXP -4
#define HALF_MIN_EXP -13
#define HALF_RADIX 2
#define HALF_MAX ((half)0x1.ffcp15f)
#define HALF_MIN ((half)0x1.0p-14f)
#define HALF_EPSILON ((half)0x1.0p-10f)
#endif

/* ---- Math constants ------------------------------------------------------ */
#define MAXFLOAT FLT_MAX
#define HUGE_VALF __builtin_huge_valf()
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
/* The spec allows INT_MIN or -INT_MAX, and INT_MAX or INT_MIN: the math
 * library's ilogb must return these. */
#define FP_ILOGB0 INT_MIN
#define FP_ILOGBNAN INT_MAX

#define M_E_F 2.71828182845904523536f
#define M_LOG2E_F 1.44269504088896340736f
#define M_LOG10E_F 0.434294481903251827651f
#define M_LN2_F 0.693147180559945309417f
#define M_LN10_F 2.30258509299404568402f
#define M_PI_F 3.14159265358979323846f
#define M_PI_2_F 1.57079632679489661923f
#define M_PI_4_F 0.785398163397448309616f
#define M_1_PI_F 0.318309886183790671538f
#define M_2_PI_F 0.636619772367581343076f
#define M_2_SQRTPI_F 1.12837916709551257390f
#define M_SQRT2_F 1.41421356237309504880f
#define M_SQRT1_2_F 0.707106781186547524401f

#if defined(cl_khr_fp64) || defined(__opencl_c_fp64)
#define HUGE_VAL __builtin_huge_val()
#define M_E 2.71828182845904523536
#define M_LOG2E 1.44269504088896340736
#define M_LOG10E 0.434294481903251827651
#define M_LN2 0.693147180559945309417
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.785398163397448309616
#define M_1_PI 0.318309886183790671538
#define M_2_PI 0.636619772367581343076
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.707106781186547524401
#endif

/* ---- Reinterpreting data as another type (6.4.4.2) ------------------------
 * as_<type>(x) and as_<type><n>(x) give the bits of x as <type><n>, which must
 * be of the same size (a 3-component vector counting as 4). They are operators
 * of the language, which clang implements as __builtin_astype; double and half
 * ones only mean something where those types exist. */
#define as_char(x) __builtin_astype((x), char)
#define as_char2(x) __builtin_astype((x), char2)
#define as_char3(x) __builtin_astype((x), char3)
#define as_char4(x) __builtin_astype((x), char4)
#define as_char8(x) __builtin_astype((x), char8)
#define as_char16(x) __builtin_astype((x), char16)
#define as_uchar(x) __builtin_astype((x), uchar)
#define as_uchar2(x) __builtin_astype((x), uchar2)
#define as_uchar3(x) __builtin_astype((x), uchar3)
#define as_uchar4(x) __builtin_astype((x), uchar4)
#define as_uchar8(x) __builtin_astype((x), uchar8)
#define as_uchar16(x) __builtin_astype((x), uchar16)
#define as_short(x) __builtin_astype((x), short)
#define as_short2(x) __builtin_astype((x), short2)
#define as_short3(x) __builtin_astype((x), short3)
#define as_short4(x) __builtin_astype((x), short4)
#define as_short8(x) __builtin_astype((x), short8)
#define as_short16(x) __builtin_astype((x), short16)
#define as_ushort(x) __builtin_astype((x), ushort)
#define as_ushort2(x) __builtin_astype((x), ushort2)
#define as_ushort3(x) __builtin_astype((x), ushort3)
#define as_ushort4(x) __builtin_astype((x), ushort4)
#define as_ushort8(x) __builtin_astype((x), ushort8)
#define as_ushort16(x) __builtin_astype((x), ushort16)
#define as_int(x) __builtin_astype((x), int)
#define as_int2(x) __builtin_astype((x), int2)
#define as_int3(x) __builtin_astype((x), int3)
#define as_int4(x) __builtin_astype((x), int4)
#define as_int8(x) __builtin_astype((x), int8)
#define as_int16(x) __builtin_astype((x), int16)
#define as_uint(x) __builtin_astype((x), uint)
#define as_uint2(x) __builtin_astype((x), uint2)
#define as_uint3(x) __builtin_astype((x), uint3)
#define as_uint4(x) __builtin_astype((x), uint4)
#define as_uint8(x) __builtin_astype((x), uint8)
#define as_uint16(x) __builtin_astype((x), uint16)
#define as_long(x) __builtin_astype((x), long)
#define as_long2(x) __builtin_astype((x), long2)
#define as_long3(x) __builtin_astype((x), long3)
#define as_long4(x) __builtin_astype((x), long4)
#define as_long8(x) __builtin_astype((x), long8)
#define as_long16(x) __builtin_astype((x), long16)
#define as_ulong(x) __builtin_astype((x), ulong)
#define as_ulong2(x) __builtin_astype((x), ulong2)
#define as_ulong3(x) __builtin_astype((x), ulong3)
#define as_ulong4(x) __builtin_astype((x), ulong4)
#define as_ulong8(x) __builtin_astype((x), ulong8)
#define as_ulong16(x) __builtin_astype((x), ulong16)
#define as_float(x) __builtin_astype((x), float)
#define as_float2(x) __builtin_astype((x), float2)
#define as_float3(x) __builtin_astype((x), float3)
#define as_float4(x) __builtin_astype((x), float4)
#define as_float8(x) __builtin_astype((x), float8)
#define as_float16(x) __builtin_astype((x), float16)
#define as_double(x) __builtin_astype((x), double)
#define as_double2(x) __builtin_astype((x), double2)
#define as_double3(x) __builtin_astype((x), double3)
#define as_double4(x) __builtin_astype((x), double4)
#define as_double8(x) __builtin_astype((x), double8)
#define as_double16(x) __builtin_astype((x), double16)
#define as_half(x) __builtin_astype((x), half)
#define as_half2(x) __builtin_astype((x), half2)
#define as_half3(x) __builtin_astype((x), half3)
#define as_half4(x) __builtin_astype((x), half4)
#define as_half8(x) __builtin_astype((x), half8)
#define as_half16(x) __builtin_astype((x), half16)

/* ---- Samplers (values of the SPIR encoding) ------------------------------ */
#define CLK_ADDRESS_NONE 0
#define CLK_ADDRESS_CLAMP_TO_EDGE 2
#define CLK_ADDRESS_CLAMP 4
#define CLK_ADDRESS_REPEAT 6
#define CLK_ADDRESS_MIRRORED_REPEAT 8
#define CLK_NORMALIZED_COORDS_FALSE 0
#define CLK_NORMALIZED_COORDS_TRUE 1
#define CLK_FILTER_NEAREST 0x10
#define CLK_FILTER_LINEAR 0x20

/* ---- cl_khr_extended_async_copies (OpenCL extension) --------------------- */
/* clang's tables do not have this extension's functions: declared here, with the
 * extension's macro, so that lower-to-mux-builtins makes them the 2-D and 3-D DMA
 * transfers. Offsets, line lengths and plane areas count elements of
 * num_bytes_per_element bytes. */
#define cl_khr_extended_async_copies 1
#define MUX_EXTENDED_COPIES(DST, SRC)                                          \
  event_t __attribute__((overloadable)) async_work_group_copy_2D2D(            \
      DST void *dst, size_t dst_offset, const SRC void *src,                   \
      size_t src_offset, size_t num_bytes_per_element,                         \
      size_t num_elements_per_line, size_t num_lines,                          \
      size_t src_total_line_length, size_t dst_total_line_length,              \
      event_t event);                                                          \
  event_t __attribute__((overloadable)) async_work_group_copy_3D3D(            \
      DST void *dst, size_t dst_offset, const SRC void *src,                   \
      size_t src_offset, size_t num_bytes_per_element,                         \
      size_t num_elements_per_line, size_t num_lines, size_t num_planes,       \
      size_t src_total_line_length, size_t src_total_plane_area,               \
      size_t dst_total_line_length, size_t dst_total_plane_area,               \
      event_t event);
MUX_EXTENDED_COPIES(__local, __global)
MUX_EXTENDED_COPIES(__global, __local)
#undef MUX_EXTENDED_COPIES

/* ---- Attributes (6.7.2) --------------------------------------------------- */
#define __kernel_exec(X, typen)                                                \
  __kernel __attribute__((work_group_size_hint(X, 1, 1)))                      \
  __attribute__((vec_type_hint(typen)))
#define kernel_exec(X, typen) __kernel_exec(X, typen)

/* ---- printf (6.15.14) -------------------------------------------------- */
/* clang's builtin tables do not declare it. `format(printf, 1, 2)` lets clang
 * check the arguments against the format (OpenCL C's vector specifiers
 * included); the call is variadic, with no mangling, and `lower-printf`
 * rewrites it into a record the host formats after the launch. */
int printf(__constant const char *restrict format, ...)
    __attribute__((format(printf, 1, 2)));

#endif /* MUX_OPENCL_BASE_H */
