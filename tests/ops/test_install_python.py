"""scripts/install.sh makes the virtualenv with the newest Python >= 3.11 it finds, not
only with ``python3.11`` (Debian 13 has 3.13, Ubuntu 24.04 3.12, and neither a 3.11)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def chosen(bin_dir: Path) -> subprocess.CompletedProcess[str]:
    """Run install.sh's own ``find_python`` with only ``bin_dir`` on the PATH."""
    script = (ROOT / "scripts" / "install.sh").read_text()
    functions = script[script.index("usable() {") : script.index('if [ ! -x "$VENV/bin/python" ]')]
    return subprocess.run(
        [shutil.which("bash") or "/bin/bash", "-c", functions + "\nfind_python"],
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": str(bin_dir)},
        timeout=60,
    )


def fake(bin_dir: Path, name: str, works: bool) -> None:
    path = bin_dir / name
    if works:
        path.symlink_to(sys.executable)  # a real interpreter (this one is >= 3.11)
    else:
        path.write_text(
            "#!/bin/sh\nexit 1\n"
        )  # a pyenv shim of a version not installed, or too old
        path.chmod(0o755)


def test_the_newest_working_python_is_chosen_and_broken_or_old_ones_are_skipped(tmp_path):
    fake(tmp_path, "python3.13", works=False)
    fake(tmp_path, "python3.12", works=True)
    fake(tmp_path, "python3.11", works=True)
    fake(tmp_path, "python3", works=True)
    assert chosen(tmp_path).stdout.strip() == "python3.12"
    (tmp_path / "python3.12").unlink()
    assert chosen(tmp_path).stdout.strip() == "python3.11"


def test_plain_python3_is_taken_when_it_is_new_enough_and_refused_when_not(tmp_path):
    fake(tmp_path, "python3", works=True)
    assert chosen(tmp_path).stdout.strip() == "python3"
    (tmp_path / "python3").unlink()
    fake(tmp_path, "python3", works=False)
    result = chosen(tmp_path)
    assert result.returncode == 1 and result.stdout == ""
