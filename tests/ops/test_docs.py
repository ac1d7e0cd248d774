"""The README is a five-minute read that points into docs/, and every link in it and in
the handbook leads somewhere."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: A Markdown link or image: ``[text](target)``; the target up to a space or ``)``.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def handbook() -> list[Path]:
    return [ROOT / "README.md", ROOT / "bench" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_the_readme_is_a_five_minute_read():
    size = (ROOT / "README.md").stat().st_size
    assert size <= 12 * 1024, f"README.md is {size} bytes; move detail into docs/"


def test_the_readme_gives_the_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make run" in text and "make test" in text


def test_every_relative_link_leads_to_a_file():
    broken = []
    for page in handbook():
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # another site, or a place on the same page
            path = (page.parent / target.split("#", 1)[0]).resolve()
            if not path.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, broken


def test_every_handbook_page_is_linked_from_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    unlinked = [
        p.name for p in sorted((ROOT / "docs").glob("*.md")) if f"(docs/{p.name})" not in readme
    ]
    assert not unlinked, unlinked
