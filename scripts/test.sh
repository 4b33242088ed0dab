#!/usr/bin/env bash
# Sets up .venv if needed, then runs every check: ruff (lint and format), pyright,
# the lit suite and pytest. Fails if any fails, and if no test ran at all.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$repo"
mkdir -p test-results
status=0
ruff check . || status=1
ruff format --check . || status=1
# pyright in standard mode over dialects/ lowering/ mux/ ([tool.pyright] in
# pyproject.toml; about 15 s). The `test` extra's pyright[nodejs] brings pyright
# and Node.js as wheels; IGNORE_WARNINGS skips its check of PyPI for a newer one.
PYRIGHT_PYTHON_IGNORE_WARNINGS=1 pyright || status=1
lit tests/filecheck --xunit-xml-output test-results/lit.xml -sv || status=1
# one worker per core (pytest-xdist): the tests share nothing but the disk cache
# of compiled kernels (conftest.py), whose entries are written atomically
pytest -q -n auto --junitxml test-results/pytest.xml "$@" || status=1
python scripts/test_summary.py test-results/lit.xml test-results/pytest.xml || status=1
exit $status
