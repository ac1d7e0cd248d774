#!/usr/bin/env bash
# Create the virtualenv when missing; `pip install -e '.[dev,boards]'` only when pyproject.toml
# changed since the last install (its sha256 is kept in a stamp inside the venv).
# Worktrees may share one .venv through a symlink: a lock keeps two installs apart.
set -euo pipefail

VENV=${VENV:-.venv}
PYTHON_BOOTSTRAP=${PYTHON_BOOTSTRAP:-python3.11}
stamp="$VENV/.lantern-installed"

if [ ! -x "$VENV/bin/python" ]; then
    echo "creating $VENV with $PYTHON_BOOTSTRAP"
    "$PYTHON_BOOTSTRAP" -m venv "$VENV"
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
