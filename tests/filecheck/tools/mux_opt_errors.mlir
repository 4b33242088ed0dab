// A command line mux-opt cannot run is one line on stderr naming the problem, and an
// error exit: no Python traceback.
//
// An unknown pass, with the passes of a close name.
// RUN: not mux-opt %s -p work-item-lops 2>&1 | filecheck %s --check-prefix=PASS
// PASS: mux-opt: unknown pass 'work-item-lops' (did you mean work-item-loops?)
// PASS-NOT: Traceback
//
// An option the pass does not have, with the options it has.
// RUN: not mux-opt %s -p 'work-item-loops{bogus=1}' 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION: mux-opt: pass 'work-item-loops' has no option 'bogus' (options: sub-group-size)
// OPTION-NOT: Traceback
// RUN: not mux-opt %s -p 'host{bogus=1}' 2>&1 | filecheck %s --check-prefix=HOST
// HOST: mux-opt: pass 'host' has no option 'bogus' (options: kernel, local-sizes, fast, software-wgc, sub-group-size, vecz-width, checked, to-llvm, start, stop)
// HOST-NOT: Traceback
//
// A value of the wrong type, or none.
// RUN: not mux-opt %s -p 'work-item-loops{sub-group-size=abc}' 2>&1 | filecheck %s --check-prefix=TYPE
// TYPE: mux-opt: pass 'work-item-loops': option 'sub-group-size' takes int, got abc
// TYPE-NOT: Traceback
// RUN: not mux-opt %s -p 'work-item-loops{sub-group-size}' 2>&1 | filecheck %s --check-prefix=NONE
// NONE: mux-opt: pass 'work-item-loops': option 'sub-group-size' takes int, got no value
// RUN: not mux-opt %s -p 'host{local-sizes=a,b}' 2>&1 | filecheck %s --check-prefix=TUPLE
// TUPLE: mux-opt: pass 'host': option 'local-sizes' takes tuple[int, ...], got a,b
//
// A pipeline that does not parse.
// RUN: not mux-opt %s -p 'host{' 2>&1 | filecheck %s --check-prefix=SYNTAX
// SYNTAX: mux-opt: bad pass pipeline 'host{': Expected argument name here (column 6)
// SYNTAX-NOT: Traceback
//
// Targets' options too.
// RUN: not mux-opt %s -t 'llvm{x=1}' 2>&1 | filecheck %s --check-prefix=TARGET
// TARGET: mux-opt: target 'llvm' has no option 'x' (options: none)
// TARGET-NOT: Traceback
// RUN: not mux-opt %s -t 'mlir{print-generic-format=3}' 2>&1 | filecheck %s --check-prefix=TARGETTYPE
// TARGETTYPE: mux-opt: target 'mlir': option 'print-generic-format' takes bool, got 3
// RUN: not mux-opt %s -t 'llvm{' 2>&1 | filecheck %s --check-prefix=TARGETSYNTAX
// TARGETSYNTAX: mux-opt: bad target 'llvm{': Expected argument name here (column 6)
// TARGETSYNTAX-NOT: Traceback
//
// Files that are not there, or cannot be written.
// RUN: not mux-opt %s.nope 2>&1 | filecheck %s --check-prefix=INPUT
// INPUT: mux-opt: cannot read {{.*}}mux_opt_errors.mlir.nope: No such file or directory
// INPUT-NOT: Traceback
// RUN: not mux-opt %s -o %t.nodir/out.mlir 2>&1 | filecheck %s --check-prefix=OUTPUT
// OUTPUT: mux-opt: cannot write {{.*}}.nodir/out.mlir: No such file or directory
// OUTPUT-NOT: Traceback
// RUN: not mux-opt %S 2>&1 | filecheck %s --check-prefix=DIR
// DIR: mux-opt: cannot read {{.*}}tools: Is a directory

func.func @k() {
  func.return
}
