#!/usr/bin/env bash
# Create the virtualenv when missing; `pip install -e '.[dev,boards]'` only when pyproject.toml
# changed since the last install (its sha256 is kept in a stamp inside the venv).
# Worktrees may share one .venv through a symlink: a lock keeps two installs apart.
#
# The virtualenv is made with PYTHON_BOOTSTRAP when set, else with the newest Python >= 3.11
# found on the PATH (python3.13, python3.12, python3.11, then python3 whatever its version):
# Debian 12 has 3.11, Ubuntu 24.04 3.12, Debian 13 3.13.
set -euo pipefail

VENV=${VENV:-.venv}
stamp="$VENV/.lantern-installed"

# A usable interpreter: runs, is 3.11 or newer, and can make a virtualenv with pip in it.
usable() {
    "$1" -c 'import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= (3, 11) else 1)' >/dev/null 2>&1
}

find_python() {
    local candidate
    for candidate in python3.13 python3.12 python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1 && usable "$candidate"; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

if [ ! -x "$VENV/bin/python" ]; then
    python=${PYTHON_BOOTSTRAP:-}
    if [ -z "$python" ]; then
        if ! python=$(find_python); then
            echo "Lantern needs Python 3.11 or newer with its venv module; none was found." >&2
            echo "On Debian or Ubuntu: sudo apt-get install python3 python3-venv" >&2
            exit 1
        fi
    elif ! usable "$python"; then
        echo "PYTHON_BOOTSTRAP=$python is not a Python >= 3.11 with the venv module." >&2
        exit 1
    fi
    echo "creating $VENV with $python ($("$python" -c 'import sys; print(sys.version.split()[0])'))"
    "$python" -m venv "$VENV"
fi

want=$(sha256sum pyproject.toml | cut -d' ' -f1)
installed() { [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; }
installed && exit 0

exec 9>"$VENV/.lantern-install.lock"
flock 9
installed && exit 0
echo "installing dependencies into $VENV (pyproject.toml changed since the last install)"
"$VENV/bin/python" -m pip install --quiet -e '.[dev,boards]'  # boards: the europe/1 rebuild test
echo "$want" >"$stamp"
