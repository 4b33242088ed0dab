"""Test-session settings."""

import os
import tempfile

# The tests compile kernels: keep the disk cache of compiled kernels in a directory
# of this session rather than the user's ~/.cache (and start it empty, so that every
# test session compiles for real).
os.environ.setdefault("MUX_CACHE_DIR", tempfile.mkdtemp(prefix="mux-test-cache-"))

# Every module the host pipeline produces is verified before it is translated (off
# outside the tests: LLVM verifies the IR it is given in any case).
import mux.compiler

mux.compiler.VERIFY_LOWERED = True
