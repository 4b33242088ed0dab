define spir_func void @sample(target("spirv.Sampler") %s) {
  ret void
}
