// A module the LLVM backend rejects: func.func is not in the llvm dialect.
func.func @f() {
  func.return
}
