// RUN: mux-opt %repo/examples/sgemm_tiled.mlir -p 'host{checked=true stop=run-vecz kernel=sgemm_tiled local_sizes=16,16,1},check-access-bounds,host{start=work-item-loops kernel=sgemm_tiled local_sizes=16,16,1}' | filecheck %s
//
// The checked packets of a vectorised kernel with barriers reach LLVM: here
// without check-local-races, which drops the packets of a kernel with local
// accesses, so that nothing hid a check convert-to-llvm refuses (a vector
// `arith.cmpi`, which xDSL gives one i1: a masked packet's lanes are compared
// by `llvm.icmp` on vectors). sgemm_tiled's tile loads are masked packets of 16
// lanes: each checked as one scalar range, lane by lane only past the end.

// CHECK:       llvm.func internal @"sgemm_tiled.mux-barrier-region.0"
// CHECK:         llvm.icmp "ult" %{{.*}}, %{{.*}} : i64
// CHECK:         llvm.icmp "uge" %{{.*}}, %{{.*}} : vector<16xi64>
// CHECK:         llvm.call_intrinsic "llvm.masked.load.v16f32.p0"
// CHECK:       llvm.func @"sgemm_tiled.host-entry-hook"
