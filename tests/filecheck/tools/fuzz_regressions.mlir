// Inputs the mutation fuzzer (scripts/fuzz.py) found to end in a Python exception or a
// hang, each reduced to a few lines: each gets a diagnostic at its op now. The same
// chunks go through mux.compile in tests/test_fuzz.py, which reads the message to
// expect from each chunk's first CHECK line.
//
// RUN: mux-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics -p host | filecheck %s
// RUN: mux-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics -p host -t llvm | filecheck %s

// A string literal not closed before the end of its line: xDSL 0.74's lexer rule
// backtracked exponentially on it (hours at this length).
// CHECK: End of file reached before closing string literal.
func.func @k() attributes {mux.kernel = "entry-point, mux.max_work_dim = 1 : i32} {
  func.return
}

// -----

// A block label used by a branch above it, then defined twice (KeyError).
// CHECK: re-declaration of block 'next'
func.func @k(%c: i1) attributes {mux.kernel = "entry-point"} {
  cf.cond_br %c, ^next, ^next
^next:
  func.return
^next:
  func.return
}

// -----

// An op using its own result (xDSL does not check dominance; RecursionError in the
// barrier passes).
// CHECK: arith.addi: operand #0 (%x) is used where its definition does not dominate the use
func.func @k(%a: memref<?xf32, 3>) attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %id = mux.get_local_id %d
  %x = arith.addi %x, %id : index
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %f = arith.constant 1.0 : f32
  memref.store %f, %a[%x] : memref<?xf32, 3>
  func.return
}

// -----

// A value used above its definition (KeyError in run-vecz).
// CHECK: memref.store: operand #0 (%r) is used where its definition does not dominate the use
func.func @k(%in: memref<?xi32, 1>, %out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %id = mux.get_local_linear_id
  %v = memref.load %in[%id] : memref<?xi32, 1>
  %four = arith.constant 4 : i32
  memref.store %r, %out[%id] : memref<?xi32, 1>
  %r = arith.muli %v, %four : i32
  func.return
}

// -----

// A loop whose step is its own induction variable (ValueError in the verifier).
// CHECK: scf.for: operand #2 is not defined in the scope of its use
func.func @k(%a: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %i {
  }
  func.return
}

// -----

// A loop-carried value initialised from a value of the loop's body.
// CHECK: scf.for: operand #3 is not defined in the scope of its use
func.func @k(%data: memref<?xf32, 1>, %n: index) attributes {mux.kernel = "entry-point"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %v) -> (f32) {
    %v = memref.load %data[%i] : memref<?xf32, 1>
    scf.yield %v : f32
  }
  func.return
}

// -----

// A generic func.func without its function_type (KeyError in func.return's verifier).
// CHECK: func.func: property 'function_type' expected
"func.func"() <{sym_name = "k"}> ({
  "func.return"() : () -> ()
}) {mux.kernel = "entry-point"} : () -> ()

// -----

// Two blocks in the module (ValueError in a call's symbol lookup).
// CHECK: builtin.module: a symbol table has a single block
"builtin.module"() ({
  "func.func"() <{sym_name = "_Z25atomic_fetch_add_explicitPU3AS1VU7_Atomicii12memory_order", function_type = (!llvm.ptr<1>, i32, tensor<4xf32>) -> i32, sym_visibility = "private"}> ({
  }) : () -> ()
    %0 = "func.call"(%p, %v, %order) <{callee = @_Z25atomic_fetch_add_explicitPU3AS1VU7_Atomicii12memory_order}> : (!llvm.ptr<1>, i32, i32) -> i32
    "func.return"(%0) : (i32) -> ()
  ^bb0(%p: !llvm.ptr<1>, %v: i32, %order: i32):
}) : () -> ()

// -----

// scf.if with a result, and regions that yield nothing (IndexError in run-vecz).
// CHECK: scf.if: its results are (f32) but a region yields ()
func.func @k(%a: memref<?xf32, 1>, %b: i1) attributes {mux.kernel = "entry-point"} {
  %c0 = arith.constant 0 : index
  %r = scf.if %b -> (f32) {
  } else {
  }
  memref.store %r, %a[%c0] : memref<?xf32, 1>
  func.return
}

// -----

// scf.while whose after region yields nothing (ValueError in run-vecz).
// CHECK: scf.while: the values scf.yield passes are (), not (index)
func.func @k(%a: memref<?xf32, 1>, %b: i1) attributes {mux.kernel = "entry-point"} {
  %c0 = arith.constant 0 : index
  %r = scf.while (%x = %c0) : (index) -> index {
    scf.condition(%b) %x : index
  } do {
  ^bb0(%y: index):
    scf.yield
  }
  %f = arith.constant 1.0 : f32
  memref.store %f, %a[%r] : memref<?xf32, 1>
  func.return
}

// -----

// A comparison predicate out of range (IndexError in the lowering).
// CHECK: arith.cmpi: predicate 63 is not in [0, 10)
func.func @k(%a: memref<?xf32, 1>, %n: index) attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %x = mux.get_global_id %d
  %in = "arith.cmpi"(%x, %n) <{predicate = 63 : i64}> : (index, index) -> i1
  scf.if %in {
    %f = arith.constant 1.0 : f32
    memref.store %f, %a[%x] : memref<?xf32, 1>
  }
  func.return
}

// -----

// A kernel without a body (AssertionError in run-vecz and in mux.Program.kernel).
// CHECK: func.func: kernel 'k' has no body: define it, or drop its mux.kernel attribute
func.func @k() attributes {mux.kernel = "entry-point"} {
}

// -----

// A call at the top level of the module (AssertionError in add-sched-params).
// CHECK: func.call: at the top level of a module, only functions and globals (symbols) may be
func.func @helper() -> i32 {
  %sg = mux.get_sub_group_id
  func.return %sg : i32
}
%sg = func.call @helper() : () -> i32
func.func @k() attributes {mux.kernel = "entry-point"} {
  func.return
}

// -----

// A global outside the module of its kernel (KeyError in replace-module-scope-vars).
// CHECK: builtin.module: at the top level of a module, only functions and globals (symbols) may be
"memref.global"() <{sym_name = "flag", type = memref<i8, 3>, initial_value, sym_visibility = "private"}> : () -> ()
"builtin.module"() ({
  "func.func"() <{sym_name = "k", function_type = () -> ()}> ({
    %flag = "memref.get_global"() <{name = @flag}> : () -> memref<i8, 3>
    %0 = "memref.load"(%flag) : (memref<i8, 3>) -> i8
    "func.return"() : () -> ()
  }) {mux.kernel = "entry-point"} : () -> ()
}) : () -> ()

// -----

// An llvm.func visibility that xDSL's printer asserts on.
// CHECK: llvm.func: visibility_ 7 is not 0, 1 or 2
"llvm.func"() <{sym_name = "f", function_type = !llvm.func<void ()>, CConv = #llvm.cconv<ccc>, linkage = #llvm.linkage<"external">, visibility_ = 7 : i64}> ({
}) : () -> ()

// -----

// An array of i0 (ZeroDivisionError in xDSL).
// CHECK: xDSL 0.74 cannot build this: integer modulo by zero (ZeroDivisionError)
func.func @k() attributes {mux.kernel = "entry-point", mux.max_work_dim = array<i0: 0>} {
  func.return
}

// -----

// An array of i128 (NotImplementedError in xDSL).
// CHECK: xDSL 0.74 cannot build this: Format not implemented for i128 (NotImplementedError)
func.func @k() attributes {mux.kernel = "entry-point", mux.max_work_dim = array<i128: 0>} {
  func.return
}

// -----

// A switch case out of its type's range (ValueError in xDSL).
// CHECK: xDSL 0.74 cannot build this: Integer value 300 is out of range for type i8
func.func @k(%a: memref<?xf32, 1>, %v: i8) attributes {mux.kernel = "entry-point"} {
  cf.switch %v : i8, [
    default: ^bb1,
    300: ^bb1
  ]
^bb1:
  func.return
}

// -----

// The same in llvmx.switch.
// CHECK: xDSL 0.74 cannot build this: Integer value 4294967296 is out of range for type i32
func.func @k(%a: memref<?xf32, 1>, %v: i32) attributes {mux.kernel = "entry-point"} {
  llvmx.switch %v : i32, ^bb1 [
    4294967296: ^bb1
  ]
^bb1:
  func.return
}

// -----

// A switch on a vector (AssertionError in xDSL).
// CHECK: xDSL 0.74 cannot build this: assert isa(flag_type, IntegerType | IndexType) (AssertionError)
func.func @k(%a: memref<?xf32, 1>, %v: vector<4xi32>) attributes {mux.kernel = "entry-point"} {
  cf.switch %v : vector<4xi32>, [
    default: ^bb1,
    3: ^bb2
  ]
^bb1:
  func.return
^bb2:
  func.return
}

// -----

// A global's address space that is not an integer (AssertionError in xDSL).
// CHECK: xDSL 0.74 cannot build this: assert isinstance(addr_space, IntegerAttr) (AssertionError)
llvm.mlir.global internal @g(0 : i32) {addr_space = unit} : i32

// -----

// An index vector constant of 2^63 (struct.error in xDSL).
// CHECK: xDSL 0.74 cannot build this: argument out of range (struct.error)
func.func @k() attributes {mux.kernel = "entry-point"} {
  %c = arith.constant dense<9223372036854775808> : vector<4xindex>
  func.return
}

// -----

// A float out of f32's range (OverflowError in xDSL).
// CHECK: xDSL 0.74 cannot build this: float too large to pack with f format (OverflowError)
func.func @k() attributes {mux.kernel = "entry-point"} {
  %c = arith.constant 1.0e39 : f32
  func.return
}

// -----

// An unknown combining kind (ValueError in xDSL).
// CHECK: xDSL 0.74 cannot build this: 'sub' is not a valid CombiningKindFlag (ValueError)
func.func @k(%v: vector<4xf32>) attributes {mux.kernel = "entry-point"} {
  %s = vector.reduction <sub>, %v : vector<4xf32> into f32
  func.return
}

// -----

// A splat of 2^32 elements (MemoryError in xDSL).
// CHECK: a dense literal of 4294967296 elements (at most 16777216)
func.func @k() attributes {mux.kernel = "entry-point"} {
  %c = arith.constant dense<1.0> : vector<4294967296xf32>
  func.return
}

// -----

// A type parameter where the type has none (ValueError in xDSL).
// CHECK: xDSL 0.74 cannot build this: zip() argument 2 is longer than argument 1 (ValueError)
func.func @k(%e: !mux.dma_event<3>) attributes {mux.kernel = "entry-point"} {
  func.return
}

// -----

// A global of vectors inside a function's body (AttributeError in convert-to-llvm,
// packing its initial value): a global is defined at the top level of a module.
// CHECK: memref.global: is defined at the top level of a module, not inside func.func
func.func @layout() attributes {mux.kernel = "entry-point"} {
  %c0 = arith.constant 0 : index
  "memref.global"() <{sym_name = "pos", type = memref<2xvector<3xf32>, 3>, initial_value, sym_visibility = "private"}> : () -> ()
  func.return
}

// -----

// An atomic function declared on a pointer without an address space (AttributeError
// in replace-atomic-funcs, reading the number of a NoneAttr).
// CHECK: replace-atomic-funcs: @_Z9atomic_orPU3AS1Vjj is uint atomic_or(volatile __global uint *, uint): its declaration must be (!llvm.ptr<1> or memref<...xi32, 1>, i32) -> i32, got (!llvm.ptr, i32) -> i32
func.func private @_Z9atomic_orPU3AS1Vjj(!llvm.ptr, i32) -> i32
func.func @k(%v: i32) attributes {mux.kernel = "entry-point"} {
  %p = llvm.mlir.zero : !llvm.ptr
  %r = func.call @_Z9atomic_orPU3AS1Vjj(%p, %v) : (!llvm.ptr, i32) -> i32
  func.return
}

// -----

// Two kernels, one named "" (DuplicatedNameError in llvmlite: two unnamed functions
// of one name).
// CHECK: func.func: a symbol's name is not empty
func.func @a() attributes {mux.kernel = "entry-point"} {
  func.return
}
func.func @""() attributes {mux.kernel = "entry-point"} {
  func.return
}

// -----

// A symbol defined twice: the diagnostic printed the module's first line with its
// custom printer, which reads the module's one block (ValueError).
// CHECK: Redefinition of symbol "twice"
func.func private @twice(!llvm.ptr<1>)
func.func private @twice(!llvm.ptr<1>)

// -----

// llvmx.fcmp on a vector of integers: its operand constraint named xDSL's AnyFloat
// union, whose error message xDSL could not format (AttributeError).
// CHECK: Unexpected attribute i32
func.func @k(%a: vector<4xf32>) -> vector<2xi1> {
  %r = llvmx.fcmp "olt" %a, %a : vector<4xi32> to vector<2xi1>
  func.return %r : vector<2xi1>
}

// -----

// An llvm.mlir.global whose initializer returns another type than the global's
// (llvmlite's TypeError in the backend).
// CHECK: llvm.mlir.global: its initializer returns (!llvm.array<16 x f32>), not (!llvm.array<127 x f32>)
llvm.mlir.global internal @tile() {addr_space = 3 : i32} : !llvm.array<127 x f32> {
  %0 = llvm.mlir.undef : !llvm.array<16 x f32>
  llvm.return %0 : !llvm.array<16 x f32>
}
func.func @k() attributes {mux.kernel = "entry-point"} {
  %tile = llvm.mlir.addressof @tile : !llvm.ptr<3>
  func.return
}

// -----

// A function defined inside another function's body (KeyError in
// replace-module-scope-vars, whose symbol table is the module's).
// CHECK: func.func: is defined at the top level of a module, not inside func.func
func.func @helper() -> i32 {
  func.func @inner() attributes {mux.kernel = "entry-point"} {
    func.return
  }
  %c = arith.constant 0 : i32
  func.return %c : i32
}

// -----

// An integer type of 324294967296 bits (MemoryError: xDSL computed its range).
// CHECK: an integer type of 324294967296 bits (at most 16777215)
func.func @k() attributes {mux.reqd_work_group_size = [8 : i32, 1 : i32, 2147483648 : i324294967296} {
  func.return
}

// -----

// An llvm.load whose ordering is no LLVM atomic ordering (KeyError in xDSL's
// printer).
// CHECK: llvm.load: ordering 63 is not an LLVM atomic ordering
llvm.mlir.global internal @s() {addr_space = 3 : i32} : i8
func.func @k() attributes {mux.kernel = "entry-point"} {
  %s = llvm.mlir.addressof @s : !llvm.ptr<3>
  %byte = "llvm.load"(%s) <{ordering = 63 : i64}> : (!llvm.ptr<3>) -> i8
  func.return
}

// -----

// The same load, its pointer defined at the module's top level: xDSL's verifier of
// the function printed the load in its message (KeyError), before any check of ours
// ran after it.
// CHECK: llvm.load: ordering 63 is not an LLVM atomic ordering
llvm.mlir.global internal @s() {addr_space = 3 : i32} : i8
  %s = llvm.mlir.addressof @s : !llvm.ptr<3>
func.func @k() attributes {mux.kernel = "entry-point"} {
  %byte = "llvm.load"(%s) <{ordering = 63 : i64}> : (!llvm.ptr<3>) -> i8
  func.return
}

// -----

// Properties of the wrong kind where a predicate or an ordering is read: the checks
// that run before the verifiers leave them to the verifiers.
// CHECK: {} should be of base attribute integer
func.func @k(%a: i64, %b: i64) -> i1 {
  %uge = "arith.cmpi"(%a, %b) <{predicate = {}}> : (i64, i64) -> i1
  func.return %uge : i1
}

// -----

// CHECK: "x" should be of base attribute integer
llvm.mlir.global internal @s() {addr_space = 3 : i32} : i8
func.func @k() attributes {mux.kernel = "entry-point"} {
  %s = llvm.mlir.addressof @s : !llvm.ptr<3>
  %byte = "llvm.load"(%s) <{ordering = "x"}> : (!llvm.ptr<3>) -> i8
  func.return
}
