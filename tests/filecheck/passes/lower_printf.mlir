// RUN: mux-opt %s --split-input-file -p lower-printf | filecheck %s
//
// Each printf call becomes a record appended to the printf buffer, a parameter
// added at the end of every function that prints and passed on by its callers:
// one atomic add reserves the record's words, a record that does not end within
// the capacity (the buffer's words 2-3) is written past it, to the scratch area
// the host never reads; the result is 0 when the record fits, else -1. The
// record is the format's number, the work-item's global linear id, then the
// values (a `%s` string is the host's table's, not the record's).

llvm.mlir.global internal constant @fmt("%d %s %v2hlf\0A\00") {addr_space = 2 : i32}
llvm.mlir.global internal constant @str("abc\00") {addr_space = 2 : i32}
llvm.func @printf(!llvm.ptr<2>, ...) -> i32

// CHECK-LABEL: func.func @helper(%x: i32, %v: vector<2xf32>, %{{.*}}: memref<?xi32, 1 : i64>) -> i32
// CHECK:         %[[BASE:.*]] = builtin.unrealized_conversion_cast %{{.*}} : memref<?xi32, 1 : i64> to !llvm.ptr<1>
// CHECK-NEXT:    %[[WORDS:.*]] = llvm.mlir.constant(6) : i64
// CHECK-NEXT:    %[[START:.*]] = atomic.rmw add monotonic %[[BASE]], %[[WORDS]] : !llvm.ptr<1>, i64
// CHECK-NEXT:    %[[END:.*]] = llvm.add %[[START]], %[[WORDS]] : i64
// CHECK-NEXT:    %[[CAPAT:.*]] = llvm.getelementptr %[[BASE]][2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:    %[[CAP:.*]] = llvm.load %[[CAPAT]] : !llvm.ptr<1> -> i64
// CHECK-NEXT:    %[[FITS:.*]] = llvm.icmp "ule" %[[END]], %[[CAP]] : i64
// CHECK-NEXT:    %[[AT:.*]] = arith.select %[[FITS]], %[[START]], %[[CAP]] : i64
// CHECK-NEXT:    %[[RECORD:.*]] = llvm.getelementptr %[[BASE]][%[[AT]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
// CHECK-NEXT:    %[[NUMBER:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    llvm.store %[[NUMBER]], %[[RECORD]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT:    %[[ID:.*]] = mux.get_global_linear_id
// CHECK-NEXT:    %[[ID64:.*]] = arith.index_cast %[[ID]] : index to i64
// CHECK-NEXT:    %[[IDAT:.*]] = llvm.getelementptr %[[RECORD]][1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:    llvm.store %[[ID64]], %[[IDAT]] {alignment = 4 : i64} : i64, !llvm.ptr<1>
// CHECK-NEXT:    %[[XAT:.*]] = llvm.getelementptr %[[RECORD]][3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:    llvm.store %x, %[[XAT]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT:    %[[VAT:.*]] = llvm.getelementptr %[[RECORD]][4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:    llvm.store %v, %[[VAT]] {alignment = 4 : i64} : vector<2xf32>, !llvm.ptr<1>
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[FAIL:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT:    %r = arith.select %[[FITS]], %[[ZERO]], %[[FAIL]] : i32
// CHECK-NEXT:    func.return %r : i32
func.func @helper(%x: i32, %v: vector<2xf32>) -> i32 {
  %fmt = llvm.mlir.addressof @fmt : !llvm.ptr<2>
  %str = llvm.mlir.addressof @str : !llvm.ptr<2>
  %r = llvm.call @printf(%fmt, %x, %str, %v) vararg(!llvm.func<i32 (!llvm.ptr<2>, ...)>) : (!llvm.ptr<2>, i32, !llvm.ptr<2>, vector<2xf32>) -> i32
  func.return %r : i32
}

// The kernel passes its buffer on to the helper; xDSL's printf.print_format is a
// record too (format 2), its result-less.
// CHECK-LABEL: func.func @k(
// CHECK-SAME:    %out: memref<?xi32, 1 : i64>, %[[BUF:[0-9]+]]: memref<?xi32, 1 : i64>)
// CHECK:         func.call @helper(%{{.*}}, %{{.*}}, %[[BUF]]) : (i32, vector<2xf32>, memref<?xi32, 1 : i64>) -> i32
// CHECK:         llvm.mlir.constant(4) : i64
// CHECK:         llvm.mlir.constant(2 : i32) : i32
// CHECK-NOT:     printf.print_format
// CHECK-NOT:     arith.select
// CHECK:         func.return
// CHECK-NOT:   llvm.func @printf
func.func @k(%out: memref<?xi32, 1 : i64>) attributes {mux.kernel = "entry-point"} {
  %c = arith.constant 7 : i32
  %v = arith.constant dense<1.5> : vector<2xf32>
  %r = func.call @helper(%c, %v) : (i32, vector<2xf32>) -> i32
  %i = arith.constant 0 : index
  memref.store %r, %out[%i] : memref<?xi32, 1 : i64>
  printf.print_format "k: {}\n", %c : i32
  func.return
}

// -----

// A format OpenCL C does not define (`%lc`): no record, the result is -1.
llvm.mlir.global internal constant @bad("%lc\00") {addr_space = 2 : i32}
llvm.func @printf(!llvm.ptr<2>, ...) -> i32

// CHECK-LABEL: func.func @bad_format(%{{.*}}: i32, %{{.*}}: memref<?xi32, 1 : i64>) -> i32
// CHECK-NEXT:    llvm.mlir.addressof @bad
// CHECK-NEXT:    %r = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT:    func.return %r : i32
func.func @bad_format(%x: i32) -> i32 {
  %fmt = llvm.mlir.addressof @bad : !llvm.ptr<2>
  %r = llvm.call @printf(%fmt, %x) vararg(!llvm.func<i32 (!llvm.ptr<2>, ...)>) : (!llvm.ptr<2>, i32) -> i32
  func.return %r : i32
}
