"""The example match logs of docs/examples/ (written by tests/make_examples.py), which
the tests use as real games recorded at a table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "docs" / "examples"


def example_text(name: str) -> str:
    return (EXAMPLES_DIR / name).read_text(encoding="utf-8")


def load_example(name: str) -> dict[str, Any]:
    """A fresh copy of one example log, by file name (``cryptid-escape.json``)."""
    return json.loads(example_text(name))
