"""scripts/check_system.sh: `make test` names the Debian packages it needs when they are
missing, with the line that installs them, before any test fails or skips for want of them."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "check_system.sh"


def run_check(tmp_path: Path, tools: list[str], chromium: str) -> subprocess.CompletedProcess:
    """The check on a machine whose PATH holds only ``tools`` and whose browser is
    ``chromium``."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for tool in ["bash", *tools]:
        if found := shutil.which(tool):
            (folder / tool).symlink_to(found)
    env = {"PATH": str(folder), "CHROMIUM": chromium, "HOME": os.environ.get("HOME", "/root")}
    return subprocess.run(
        [str(folder / "bash"), str(SCRIPT)], capture_output=True, text=True, env=env, check=False
    )


def test_a_machine_without_the_browser_or_gettext_is_told_what_to_install(tmp_path):
    result = run_check(tmp_path, ["fc-list"], chromium=str(tmp_path / "no-chromium"))
    assert result.returncode == 1
    assert "apt-get install -y chromium gettext" in result.stderr
    assert "missing gettext: tests/i18n runs makemessages" in result.stderr


def test_a_machine_without_fontconfig_is_told_of_it_and_of_the_fonts(tmp_path):
    browser = tmp_path / "chromium"
    browser.write_text("#!/bin/sh\n")
    browser.chmod(0o755)
    result = run_check(tmp_path, ["xgettext", "msgmerge", "msguniq", "msgattrib"], str(browser))
    assert result.returncode == 1
    assert "apt-get install -y fontconfig fonts-ipafont-gothic fonts-dejavu-core" in result.stderr


def test_make_test_checks_first_and_ci_installs_what_the_check_names():
    packages = subprocess.run(
        [str(SCRIPT), "--packages"], capture_output=True, text=True, check=True
    ).stdout.split()
    assert packages == [
        "chromium",
        "fontconfig",
        "fonts-ipafont-gothic",
        "fonts-dejavu-core",
        "gettext",
    ]
    assert "test: check-system install" in (ROOT / "Makefile").read_text()
    assert (
        "services_install $(scripts/check_system.sh --packages)"
        in (ROOT / ".ci" / "run").read_text()
    )
