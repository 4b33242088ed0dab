// The metadata passes reject what they cannot encode, with a diagnostic.
//
// RUN: not mux-opt %s -p 'encode-kernel-metadata{name=nope}' 2>&1 | filecheck %s --check-prefix=NAME
// NAME: encode-kernel-metadata: no function 'nope' to encode (defined functions: k)
//
// RUN: not mux-opt %s -p 'encode-kernel-metadata{name=k local-sizes=0,4}' 2>&1 | filecheck %s --check-prefix=ZERO
// ZERO: encode-kernel-metadata: local sizes must be positive, got (0, 4)
//
// RUN: not mux-opt %s -p 'encode-kernel-metadata{name=k local-sizes=1,2,3,4}' 2>&1 | filecheck %s --check-prefix=FOUR
// FOUR: local-sizes has 1 to 3 sizes, got (1, 2, 3, 4)
//
// RUN: not mux-opt %s -p 'transfer-kernel-metadata{order=xyw}' 2>&1 | filecheck %s --check-prefix=ORDER
// ORDER: unknown work-item order 'xyw' (one of xyz, xzy, yxz, yzx, zxy, zyx)
func.func @k() attributes {mux.kernel} {
  func.return
}
