"""Every rule id Lantern can cite has its text in the reference, and every rule in the
reference is cited by a test named after it (the tests are the rules, checked)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from engine.core.errors import RULE_ID, rule_path
from reference.documents import all_rules
from reference.links import rule_url

ROOT = Path(__file__).resolve().parents[2]
#: Where rule ids are cited from: the engine, and the site's own refusals.
CITING = ["engine", "games", "recorder", "replay", "tournaments"]


def cited_ids(folder: str) -> dict[str, str]:
    """Every string constant in the Python code under ``folder`` that is a whole rule id
    (``"CUL-3.7"``, ``REC_BOT = "REC-BOT"``, ``end_rule = "MX-3.6"``), with a file citing it."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and RULE_ID.fullmatch(node.value)
            ):
                found.setdefault(node.value, str(path.relative_to(ROOT)))
    return found


def test_the_collection_finds_the_rules_the_engine_cites():
    engine = cited_ids("engine")
    # each game's rules modules, the envelope, the engine's own error, the end rules
    assert {
        "CUL-3.7",
        "CUL-3.10",
        "MX-6.8",
        "MX-1.2",
        "CD-3.3",
        "CD-7.2",
        "LOG-JSON",
        "LOG-META",
        "ENGINE-ERROR",
    } <= set(engine)
    assert len([r for r in engine if r.startswith(("CUL-", "MX-", "CD-"))]) >= 50
    assert {"REC-BOT", "REC-SEATS"} <= set(cited_ids("recorder"))


@pytest.mark.parametrize("folder", CITING)
def test_every_rule_id_cited_has_its_text_in_the_reference(folder):
    rules = all_rules()
    missing = {rule: where for rule, where in cited_ids(folder).items() if rule not in rules}
    assert not missing, f"cited without a text in docs/rules/: {missing}"
    for rule in cited_ids(folder):
        # the engine's path (the CLI prints it) is the site's link, and the page holds the anchor
        assert rule_url(rule) == rule_path(rule) == f"/rules/{rules[rule].document}/#{rule}"


def test_an_id_without_a_text_is_no_link():
    assert rule_url("CUL-9.9") is None and rule_url("MX-3.6") is not None
    assert rule_url("") is None and rule_url(None) is None and rule_url("not a rule") is None


def _test_names(folder: str) -> set[str]:
    return {
        match.group(1).lower()
        for path in (ROOT / "tests" / folder).rglob("test_*.py")
        for match in re.finditer(
            r"^\s*(?:async )?def (test_\w+)", path.read_text(encoding="utf-8"), re.M
        )
    }


def _named_after(rule: str, names: set[str]) -> bool:
    stem = "test_" + re.sub(r"[-.]", "_", rule.lower())
    return any(name == stem or name.startswith(stem + "_") for name in names)


def test_every_rule_in_the_reference_is_cited_by_a_test_named_after_it():
    """A rule with sub-rules (CUL-3 and its CUL-3.x) is covered by those; every other rule
    needs a test whose name starts with its id: the games' rules among the engine's
    tests, the rating maths among the ladder's, the format's ids anywhere."""
    rules = all_rules()
    scope = {"CUL": "engine", "MX": "engine", "CD": "engine", "EL": "ladder"}
    names = {folder: _test_names(folder) for folder in ("engine", "ladder", "")}
    leaves = [r for r in rules if not any(other.startswith(r + ".") for other in rules)]
    uncited = [r for r in leaves if not _named_after(r, names[scope.get(r.split("-")[0], "")])]
    assert not uncited, f"rules no test is named after: {uncited}"
    assert len(leaves) > 100
