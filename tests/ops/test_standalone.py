"""The repository stands alone: nothing in it reads a folder beside the checkout (the
rules, the log format and the rating maths are in ``docs/``)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
#: Spelled in pieces, so that this file does not match itself.
OUTSIDE = ["../" + "shared", "/work/" + "shared", "LANTERN_" + "SHARED_DIR"]
CODE = {".py", ".sh", ".js", ".html", ".toml", ".cfg", ".ini", ".md", ".json", ""}


def project_files() -> list[Path]:
    # tool caches (.hypothesis keeps example strings from old runs) are not the project
    skip = {
        ".git",
        ".venv",
        "node_modules",
        "artifacts",
        "var",
        "staticfiles",
        "__pycache__",
        ".hypothesis",
        ".pytest_cache",
        ".ruff_cache",
    }
    return [
        p
        for p in ROOT.rglob("*")
        if p.is_file()
        and not skip & set(p.relative_to(ROOT).parts)
        and p.suffix in CODE
        and p.stat().st_size < 2_000_000
    ]


def test_no_file_names_a_folder_beside_the_checkout():
    offenders = [
        f"{p.relative_to(ROOT)}: {needle}"
        for p in project_files()
        for needle in OUTSIDE
        if needle in p.read_text(encoding="utf-8", errors="replace")
    ]
    assert not offenders, offenders


def test_no_setting_points_outside_the_project():
    assert not hasattr(settings, "LANTERN_" + "SHARED_DIR")
