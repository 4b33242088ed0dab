"""ComputeMux on xDSL: the public API and the command-line tools."""
