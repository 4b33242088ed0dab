// The reduce example, with barriers and a local buffer, through mux-run: one sum per
// work-group of 4, the last group holding 2 work-items.
// RUN: mux-run %repo/examples/reduce.mlir reduce --global 10 --local 4 range:10 zeros:3 local:16 | filecheck %s
// CHECK: input = [0. 1. 2. 3. 4. 5. 6. 7. 8. 9.]
// CHECK-NEXT: partial = [ 6. 22. 17.]
// RUN: mux-run %repo/examples/reduce.mlir reduce --global 10 --local 4 --threads 1 range:10 zeros:3 local:16 | filecheck %s
