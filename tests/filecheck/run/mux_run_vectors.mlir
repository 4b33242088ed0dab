// mux-run's arguments for vectors: N elements of an int4 buffer are an N x 4 array
// (range:N counts through its 4N lanes), an int4 by value is its numbers, comma
// separated. a = [[0 1 2 3] [4 5 6 7]], c = (1, 2, 3, 4).
// RUN: mux-run %S/Inputs/vectors.cl madd4 range:2 zeros:2 1,2,3,4 --global 2 --local 1 | filecheck %s
// CHECK:      a = [[0 1 2 3]
// CHECK-NEXT:  [4 5 6 7]]
// CHECK-NEXT: b = [[ 3  4  7 12]
// CHECK-NEXT:  [11 16 23 32]]
//
// A vector of the wrong length, and a struct (which mux-run does not build), are
// errors naming the argument.
// RUN: not mux-run %S/Inputs/vectors.cl madd4 range:2 zeros:2 1,2,3 --global 2 2>&1 | filecheck %s --check-prefix=LENGTH
// LENGTH: mux-run: argument 'c': expected a vector<4xi32> as a tuple, list or 1-D array of 4 numbers, got 3 values
// RUN: not mux-run %S/Inputs/vectors.cl madd4 range:2 zeros:2 1,x,3,4 --global 2 2>&1 | filecheck %s --check-prefix=LANE
// LANE: mux-run: 'c' is a vector<4xi32>: give its 4 numbers, comma separated, got '1,x,3,4'
// RUN: not mux-run %S/Inputs/vectors.cl with_struct zeros:4 1 --global 4 2>&1 | filecheck %s --check-prefix=STRUCT
// STRUCT: mux-run: 'p' is a struct passed by value, which mux-run does not build: launch the kernel from Python, with a numpy record
