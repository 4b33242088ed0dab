"""Front-ends: what turns a kernel written outside this project (LLVM IR, OpenCL C)
into a module of our dialects (DESIGN.md, level 0)."""
