"""The front-end: kernels written outside our dialects, brought in as our IR.

OpenCL C goes down this path (issue 15), each step a module here:

    OpenCL C text + clBuildProgram options
        |  clang.py: find a clang, compile for spir64 with our base header
        |            (include/mux_opencl_base.h) -> LLVM IR text
        v
    LLVM IR text (also what a `.ll` file holds)
        |  llvm_import/: the LLVM IR importer (`import_llvm`): every function to
        |  a `func.func`, bodies at the llvm-dialect level, builtins left as
        |  `func.call`s of their mangled names
        v
    MLIR in our dialects -> lower-to-mux-builtins -> the host pipeline

`clang.compile_opencl` is the first step and also returns the build options it
parsed (`BuildOptions`), whose math flags `mux.compile` carries into
`CompileOptions`; `llvm_import.import_llvm` is the second
(`python -m mux.frontend.llvm_import FILE.ll` prints what it makes).
"""
