// RUN: mux-opt -t llvm %s | filecheck %s
// RUN: mux-opt -t asm %s | filecheck %s --check-prefix=ASM
// RUN: not mux-opt -t llvm %S/Inputs/untranslatable.mlir 2>&1 | filecheck %s --check-prefix=ERR
//
// `mux-opt -t llvm` prints the LLVM IR of an llvm-dialect module; `-t asm` the host
// assembly after O3. Every address space becomes 0 in LLVM IR (the host has one flat
// memory); linkage, noalias and function attributes are kept.

// CHECK: target triple =

// Globals: initialisers (also of nested arrays), address space 3 flattened, an
// external global with an initialiser is a definition, one without is a declaration.
// CHECK: @"lut" = internal constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 16
// CHECK: @"local" = internal global [64 x float] undef
// CHECK: @"counter" = global i64 7
// CHECK: @"imported" = external global i32
llvm.mlir.global internal constant @lut(dense<[1, 2, 3, 4]> : tensor<4xi32>) {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4 x i32>
llvm.mlir.global internal @local() {addr_space = 3 : i32} : !llvm.array<64 x f32>
llvm.mlir.global external @counter(7 : i64) : i64
llvm.mlir.global external @imported() : i32

// CHECK-LABEL: define internal float @"load_local"(i64 %"i") alwaysinline nounwind
// CHECK-NEXT: {
// CHECK-NEXT: bb0:
// CHECK-NOT: addrspace
// CHECK: %[[P:.*]] = getelementptr float, {{.*}}, i64 %"i"
// CHECK-NEXT: %[[V:.*]] = load float, {{.*}} %[[P]]
// CHECK-NEXT: ret float %[[V]]
llvm.func internal @load_local(%i: i64) -> f32 attributes {passthrough = ["alwaysinline", "nounwind"]} {
  %base = llvm.mlir.addressof @local : !llvm.ptr<3>
  %p = llvm.getelementptr %base[%i] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  %v = llvm.load %p : !llvm.ptr<3> -> f32
  llvm.return %v : f32
}

// CHECK-LABEL: define void @"vadd"(ptr noalias %"a", ptr noalias %"b", ptr noalias %"c", i64 %"n")
// CHECK-NOT: addrspace
// CHECK: phi i64 [0, %"bb0"]
// CHECK: br i1 {{.*}}, label %"bb2", label %"bb3"
// CHECK-NOT: !llvm.loop
// CHECK: getelementptr inbounds float, ptr %"a"
// CHECK: fadd float
// CHECK: store float
// The branch back to the loop's header carries the loop's metadata (LOOP_HINTS).
// CHECK: br label %"bb1", !llvm.loop ![[LOOP:[0-9]+]]
// CHECK: ret void
llvm.func @vadd(%a: !llvm.ptr<1> {llvm.noalias}, %b: !llvm.ptr<1> {llvm.noalias},
                %c: !llvm.ptr<1> {llvm.noalias}, %n: i64) {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^header(%zero : i64)
^header(%i: i64):
  %more = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more, ^body, ^exit
^body:
  %pa = llvm.getelementptr inbounds %a[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %pb = llvm.getelementptr inbounds %b[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %pc = llvm.getelementptr inbounds %c[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %va = llvm.load %pa : !llvm.ptr<1> -> f32
  %vb = llvm.load %pb : !llvm.ptr<1> -> f32
  %s = llvm.fadd %va, %vb : f32
  %l = llvm.call @load_local(%i) : (i64) -> f32
  %t = llvm.fadd %s, %l : f32
  llvm.store %t, %pc : f32, !llvm.ptr<1>
  %next = llvm.add %i, %one : i64
  llvm.br ^header(%next : i64)
^exit:
  llvm.return
}

// A load marked `mux.invariant_load` (memory the kernel never writes) is LLVM's
// `!invariant.load`, whose node is empty.
// CHECK-LABEL: define i64 @"invariant"(ptr %"p")
// CHECK:       load i64, ptr %"p", !invariant.load ![[EMPTY:[0-9]+]]
llvm.func @invariant(%p: !llvm.ptr<1>) -> i64 {
  %v = llvm.load %p {mux.invariant_load} : !llvm.ptr<1> -> i64
  llvm.return %v : i64
}

// The llvmx ops: addrspacecast is the identity once every space is 0.
// CHECK-LABEL: define i32 @"atomics"(ptr %"p", i32 %"v", float %"f")
// CHECK-NEXT: {
// CHECK-NEXT: bb0:
// CHECK-NEXT: %[[OLD:.*]] = atomicrmw add ptr %"p", i32 %"v" seq_cst, align 4
// CHECK-NEXT: %{{.*}} = cmpxchg weak ptr %"p", i32 %[[OLD]], i32 %"v" acq_rel monotonic
// CHECK-NEXT: fence release
// CHECK-NEXT: %[[I:.*]] = fptosi float %"f" to i32
// CHECK-NEXT: %[[U:.*]] = fptoui float %"f" to i64
// CHECK-NEXT: %{{.*}} = uitofp i64 %[[U]] to double
// CHECK-NEXT: %[[F:.*]] = freeze i32 %[[I]]
// Two edges to ^join pass it arguments: each goes through a block of its own.
// CHECK-NEXT: switch i32 %[[F]], label %"bb1.edge" [i32 0, label %"bb2" i32 7, label %"bb1.edge.1"]
// CHECK-NEXT: bb1:
// CHECK-NEXT: %"r" = phi i32 [%[[OLD]], %"bb1.edge"], [%[[OLD]], %"bb1.edge.1"], [%"v", %"bb2"]
// CHECK: bb1.edge:
// CHECK-NEXT: br label %"bb1"
llvm.func @atomics(%p: !llvm.ptr<1>, %v: i32, %f: f32) -> i32 {
  %g = llvmx.addrspacecast %p : !llvm.ptr<1> to !llvm.ptr<4>
  %old = llvmx.atomicrmw add %g, %v seq_cst align 4 : !llvm.ptr<4>, i32
  %pair = llvmx.cmpxchg weak %p, %old, %v acq_rel monotonic : !llvm.ptr<1>, i32
  llvmx.fence release
  %i = llvmx.fptosi %f : f32 to i32
  %u = llvmx.fptoui %f : f32 to i64
  %d = llvmx.uitofp %u : i64 to f64
  %fr = llvmx.freeze %i : i32
  llvmx.switch %fr : i32, ^join(%old : i32) [
    0: ^zero,
    7: ^join(%old : i32)
  ]
^join(%r: i32):
  llvm.return %r : i32
^zero:
  llvm.br ^join(%v : i32)
}

// Volatile accesses: llvmx.load is `load volatile` (with its alignment or none),
// llvm.store's volatile flag is `store volatile`.
// CHECK-LABEL: define i32 @"volatile_twice"(ptr %"p")
// CHECK-NEXT: {
// CHECK-NEXT: bb0:
// CHECK-NEXT: %[[A:.*]] = load volatile i32, ptr %"p", align 4
// CHECK-NEXT: %[[B:.*]] = load volatile i32, ptr %"p"
// CHECK-NEXT: %[[S:.*]] = add i32 %[[A]], %[[B]]
// CHECK-NEXT: store volatile i32 %[[S]], ptr %"p", align 4
llvm.func @volatile_twice(%p: !llvm.ptr<1>) -> i32 {
  %a = llvmx.load volatile %p align 4 : !llvm.ptr<1> -> i32
  %b = llvmx.load volatile %p : !llvm.ptr<1> -> i32
  %s = llvm.add %a, %b : i32
  llvm.store volatile %s, %p {alignment = 4 : i64} : i32, !llvm.ptr<1>
  llvm.return %s : i32
}

// llvmx.memcpy is the llvm.memcpy intrinsic, declared once per type signature under
// its mangled name, non-volatile; the address spaces are flattened to 0.
// CHECK-LABEL: define void @"copy"(ptr %"d", ptr %"s", i64 %"n", i32 %"m")
// CHECK-NEXT: {
// CHECK-NEXT: bb0:
// CHECK-NEXT: call void @"llvm.memcpy.p0.p0.i64"(ptr %"d", ptr %"s", i64 %"n", i1 0)
// CHECK-NEXT: call void @"llvm.memcpy.p0.p0.i64"(ptr %"s", ptr %"d", i64 %"n", i1 0)
// CHECK-NEXT: call void @"llvm.memcpy.p0.p0.i32"(ptr %"s", ptr %"d", i32 %"m", i1 0)
// CHECK-NEXT: ret void
llvm.func @copy(%d: !llvm.ptr<3>, %s: !llvm.ptr<1>, %n: i64, %m: i32) {
  llvmx.memcpy %d, %s, %n : !llvm.ptr<3>, !llvm.ptr<1>, i64
  llvmx.memcpy %s, %d, %n : !llvm.ptr<1>, !llvm.ptr<3>, i64
  llvmx.memcpy %s, %d, %m : !llvm.ptr<1>, !llvm.ptr<3>, i32
  llvm.return
}

// ASM: vadd:
// ASM: atomics:
// ASM: lock

// ERR: cannot translate func.func to LLVM IR

// Comparisons and selects lane by lane (the vectoriser's llvmx.fcmp and
// llvmx.select): a vector of i1 chooses between two vectors.
// CHECK-LABEL: define <4 x float> @"lanes"(<4 x float> %"a", <4 x float> %"b")
// CHECK:         [[C:%.*]] = fcmp ogt <4 x float> %"a", %"b"
// CHECK-NEXT:    [[U:%.*]] = fcmp uno <4 x float> %"a", %"b"
// CHECK-NEXT:    [[S:%.*]] = select {{ *}}<4 x i1> [[C]], <4 x float> %"a", <4 x float> %"b"
// CHECK-NEXT:    [[T:%.*]] = select {{ *}}<4 x i1> [[U]], <4 x float> %"b", <4 x float> [[S]]
// CHECK-NEXT:    ret <4 x float> [[T]]
llvm.func @lanes(%a: vector<4xf32>, %b: vector<4xf32>) -> vector<4xf32> {
  %c = llvmx.fcmp "ogt" %a, %b : vector<4xf32> to vector<4xi1>
  %u = llvmx.fcmp "uno" %a, %b : vector<4xf32> to vector<4xi1>
  %s = llvmx.select %c, %a, %b : vector<4xi1>, vector<4xf32>
  %t = llvmx.select %u, %b, %s : vector<4xi1>, vector<4xf32>
  llvm.return %t : vector<4xf32>
}

// The metadata of the loops, after the functions: a loop id that refers to itself
// and the hint, no unrolling at run time.
// CHECK: ![[HINT:[0-9]+]] = !{ !"llvm.loop.unroll.runtime.disable" }
// CHECK-NEXT: ![[LOOP]] = !{ ![[LOOP]], ![[HINT]] }

// The metadata nodes come last: the invariant load's is empty.
// CHECK: ![[EMPTY]] = !{ }
