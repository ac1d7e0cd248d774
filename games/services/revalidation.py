"""Revalidation: every stored log replayed with the current engine, reporting what
would change (nothing is written)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engine
from games.models import Match


@dataclass(frozen=True)
class Revalidation:
    """One stored match whose replay with the current engine no longer agrees."""

    match_id: int
    club: str
    game: str
    stored_status: str
    stored_result: dict[str, Any] | None
    stored_rules_version: str
    status: str
    result: dict[str, Any] | None
    rules_version: str
    rejection: dict[str, Any] | None

    def describe(self) -> str:
        now = (
            self.status
            if self.rejection is None
            else (
                f"rejected at {self.rejection['where']}: {self.rejection['rule']}: "
                f"{self.rejection['message']}"
            )
        )
        return (
            f"match {self.match_id} ({self.club}, {self.game}, rules {self.stored_rules_version} "
            f"→ {self.rules_version}): was {self.stored_status} {self.stored_result or ''}, "
            f"now {now} {self.result or ''}"
        ).strip()


@dataclass
class RevalidationReport:
    checked: int = 0
    changed: list[Revalidation] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "checked": self.checked,
            "changed": [change.__dict__ for change in self.changed],
        }


def revalidate_matches(game: str | None = None) -> RevalidationReport:
    """Replay every stored log (of ``game``, or all) with the current engine and report
    the matches whose validity or result changed. Changes nothing in the database."""
    report = RevalidationReport()
    matches = Match.objects.select_related("club", "log").order_by("id")
    if game:
        matches = matches.filter(game=game)
    for match in matches.iterator(chunk_size=200):
        report.checked += 1
        change = _revalidate(match)
        if change is not None:
            report.changed.append(change)
    return report


def _revalidate(match: Match) -> Revalidation | None:
    document = match.log.document
    rejection = None
    result = None
    rules_version = ""
    try:
        replayed = engine.replay(document)
    except engine.IllegalAction as exc:
        status = Match.Status.REJECTED
        rejection = {"where": exc.where(), **exc.as_dict()}
        game = engine.get_game(document.get("game")) if isinstance(document, dict) else None
        rules_version = game.rules_version if game else ""
    else:
        finished = replayed.status == "finished"
        status = Match.Status.VALID if finished else Match.Status.UNFINISHED
        result = replayed.result if finished else None
        rules_version = replayed.game.rules_version
    if status == match.status and result == match.result:
        return None
    return Revalidation(
        match_id=match.pk,
        club=match.club.slug,
        game=match.game,
        stored_status=match.status,
        stored_result=match.result,
        stored_rules_version=match.rules_version,
        status=status,
        result=result,
        rules_version=rules_version,
        rejection=rejection,
    )
