// A kernel that calls itself, directly or through other functions, is a diagnostic
// naming the cycle (OpenCL C: "Recursion is not supported"), from both metadata
// passes: every kernel under transfer-kernel-metadata, the named kernel and the
// kernels it reaches under encode-kernel-metadata.
//
// RUN: mux-opt --split-input-file --verify-diagnostics %s -p transfer-kernel-metadata | filecheck %s
// RUN: mux-opt --split-input-file --verify-diagnostics %s -p 'encode-kernel-metadata{name=k}' | filecheck %s --check-prefix=ENCODE
// RUN: mux-opt --split-input-file --verify-diagnostics %s -p 'host{kernel=k}' | filecheck %s --check-prefix=HOST

// CHECK: transfer-kernel-metadata: kernel 'k' calls itself, and OpenCL C has no recursion: 'k' -> 'k'
// ENCODE: encode-kernel-metadata: kernel 'k' calls itself, and OpenCL C has no recursion: 'k' -> 'k'
// HOST: encode-kernel-metadata: kernel 'k' calls itself, and OpenCL C has no recursion: 'k' -> 'k'
func.func @k(%n: index) attributes {mux.kernel = "entry-point"} {
  func.call @k(%n) : (index) -> ()
  func.return
}

// -----

// Through a helper; the kernel being compiled is the caller, the recursive kernel
// one it calls.
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: transfer-kernel-metadata: kernel 'inner' calls itself, and OpenCL C has no recursion: 'inner' -> 'helper' -> 'inner'
// ENCODE: encode-kernel-metadata: kernel 'inner' calls itself, and OpenCL C has no recursion: 'inner' -> 'helper' -> 'inner'
// HOST: encode-kernel-metadata: kernel 'inner' calls itself, and OpenCL C has no recursion: 'inner' -> 'helper' -> 'inner'
func.func @helper(%n: index) {
  func.call @inner(%n) : (index) -> ()
  func.return
}
func.func @inner(%n: index) attributes {mux.kernel} {
  func.call @helper(%n) : (index) -> ()
  func.return
}
func.func @k(%n: index) attributes {mux.kernel = "entry-point"} {
  func.call @inner(%n) : (index) -> ()
  func.return
}

// -----

// Two kernels calling each other.
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: transfer-kernel-metadata: kernel 'ping' calls itself, and OpenCL C has no recursion: 'ping' -> 'k' -> 'ping'
// ENCODE: encode-kernel-metadata: kernel 'k' calls itself, and OpenCL C has no recursion: 'k' -> 'ping' -> 'k'
// HOST: encode-kernel-metadata: kernel 'k' calls itself, and OpenCL C has no recursion: 'k' -> 'ping' -> 'k'
func.func @ping(%n: index) attributes {mux.kernel = "entry-point"} {
  func.call @k(%n) : (index) -> ()
  func.return
}
func.func @k(%n: index) attributes {mux.kernel = "entry-point"} {
  func.call @ping(%n) : (index) -> ()
  func.return
}

// -----

// A recursive helper that is no kernel is left alone (only kernels are checked).
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: builtin.module {
// CHECK-NEXT:   func.func @countdown
// ENCODE: func.func @countdown
func.func @countdown(%n: index) {
  func.call @countdown(%n) : (index) -> ()
  func.return
}
func.func @k(%n: index) attributes {mux.kernel = "entry-point"} {
  func.call @countdown(%n) : (index) -> ()
  func.return
}
