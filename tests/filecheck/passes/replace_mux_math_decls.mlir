// RUN: mux-opt %s -p replace-mux-math-decls | filecheck %s
// RUN: mux-opt %s -p 'replace-mux-math-decls{ftz=true fast=true embedded=true}' | filecheck %s --check-prefix=ALL
// RUN: mux-opt %s -p 'replace-mux-math-decls{fast=true}' | filecheck %s --check-prefix=FAST
//
// replace-mux-math-decls: the three maths queries become constants of the options.

// CHECK-LABEL: func.func @queries
// CHECK-NEXT: %[[F:.*]] = arith.constant false
// CHECK-NEXT: %[[U:.*]] = arith.constant false
// CHECK-NEXT: %[[E:.*]] = arith.constant false
// CHECK-NEXT: func.return %[[F]], %[[U]], %[[E]]
// ALL-LABEL: func.func @queries
// ALL-NEXT: arith.constant true
// ALL-NEXT: arith.constant true
// ALL-NEXT: arith.constant true
// FAST-LABEL: func.func @queries
// FAST-NEXT: arith.constant false
// FAST-NEXT: arith.constant true
// FAST-NEXT: arith.constant false
func.func @queries() -> (i1, i1, i1) {
  %ftz = mux.isftz
  %fast = mux.usefast
  %embedded = mux.isembeddedprofile
  func.return %ftz, %fast, %embedded : i1, i1, i1
}

// Other queries are left to define-mux-builtins.
// CHECK-LABEL: func.func @others
// CHECK-NEXT: mux.get_work_dim
func.func @others() -> i32 {
  %d = mux.get_work_dim
  func.return %d : i32
}
