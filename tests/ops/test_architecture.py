"""The architecture, held by tools (``make test`` runs them first, this suite again so that
a plain pytest run catches a break too):

- import-linter (``[tool.importlinter]`` in pyproject.toml): the engine imports no Django
  and no app; no import cycle inside an app; the apps in layers, each importing only the
  apps below it (the few page-level exceptions are listed there);
- mypy on ``engine/`` (``[tool.mypy]``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from django.conf import settings

BIN = Path(sys.executable).parent


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=settings.BASE_DIR, capture_output=True, text=True,
                          timeout=600)


def test_import_contracts_hold() -> None:
    result = _run([str(BIN / "lint-imports"), "--no-cache"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_the_engine_type_checks(tmp_path: Path) -> None:
    result = _run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path)])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success" in result.stdout
