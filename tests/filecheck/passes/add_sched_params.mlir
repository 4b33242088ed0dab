// RUN: mux-opt --split-input-file %s -p add-sched-params | filecheck %s
//
// add-sched-params: the spec's example, with our ops standing for the builtins. @foo
// needs the scheduling parameters (it reads the local id), @bar calls it, @baz
// calls @bar; @kernel is an entry point and gets them whatever it does; @pure needs
// nothing and is untouched.

// CHECK:      builtin.module attributes {mux.scheduling_params = ["MuxWorkItemInfo", "MuxWorkGroupInfo"]} {
// CHECK-NEXT:   func.func @foo(%d: i32, %wi: !llvm.ptr, %wg: !llvm.ptr) -> index attributes {mux.scheduled_fn = array<i32: 1, 2>} {
// CHECK-NEXT:     %id = mux.get_local_id %d
// CHECK-NEXT:     func.return %id : index
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @bar(%wi: !llvm.ptr, %wg: !llvm.ptr) -> index attributes {mux.scheduled_fn = array<i32: 0, 1>} {
// CHECK-NEXT:     %d = arith.constant 0 : i32
// CHECK-NEXT:     %id = func.call @foo(%d, %wi, %wg) : (i32, !llvm.ptr, !llvm.ptr) -> index
// CHECK-NEXT:     func.return %id : index
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @baz(%x: f32, %wi: !llvm.ptr, %wg: !llvm.ptr) attributes {mux.scheduled_fn = array<i32: 1, 2>} {
// CHECK-NEXT:     %id = func.call @bar(%wi, %wg) : (!llvm.ptr, !llvm.ptr) -> index
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @kernel(%a: memref<?xf32, 1 : i64>, %wi: !llvm.ptr, %wg: !llvm.ptr) attributes {mux.kernel = "entry-point", mux.scheduled_fn = array<i32: 1, 2>} {
// CHECK-NEXT:     %r = func.call @pure() : () -> i32
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @pure() -> i32 {
func.func @foo(%d: i32) -> index {
  %id = mux.get_local_id %d
  func.return %id : index
}
func.func @bar() -> index {
  %d = arith.constant 0 : i32
  %id = func.call @foo(%d) : (i32) -> index
  func.return %id : index
}
func.func @baz(%x: f32) {
  %id = func.call @bar() : () -> index
  func.return
}
func.func @kernel(%a: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {
  %r = func.call @pure() : () -> i32
  func.return
}
func.func @pure() -> i32 {
  %c = arith.constant 3 : i32
  func.return %c : i32
}

// -----

// The setters need them too; the maths queries do not (they are constants).
// CHECK-LABEL: func.func @setter(%v: index, %wi: !llvm.ptr, %wg: !llvm.ptr)
// CHECK-LABEL: func.func @maths() -> i1 {
func.func @setter(%v: index) {
  %d = arith.constant 0 : i32
  mux.set_local_id %d, %v
  func.return
}
func.func @maths() -> i1 {
  %f = mux.isftz
  func.return %f : i1
}

// -----

// Nothing needs them: the module gets no list.
// CHECK:     builtin.module {
// CHECK-NOT: mux.scheduling_params
func.func @nothing() {
  func.return
}
