# Sourced by the other scripts: creates .venv with the project and its test tools
# (only python3 is needed), reinstalling when pyproject.toml changes, and puts it on
# PATH.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$repo/.venv"
stamp="$venv/.installed-$(sha256sum "$repo/pyproject.toml" | cut -c1-16)"
if [ ! -f "$stamp" ]; then
    echo "setting up $venv ..."
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet -e "$repo[test]"
    rm -f "$venv"/.installed-*
    touch "$stamp"
fi
export PATH="$venv/bin:$PATH"
