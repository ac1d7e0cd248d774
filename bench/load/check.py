"""After a load run, once the queues have drained: every accepted upload is a match and
every match is rated exactly once (bench/load/run.sh). Prints one JSON object; exits 1
when anything is wrong, 2 when ratings are still being written (run.sh waits and retries).

Checks:
  - every upload the client saw answered 201/200 (results files of uploads.lua) names a
    stored match whose content hash is the sha256 of the canonical JSON of one of our logs,
    every 201 is a different match, and every API upload recorded as accepted (answered
    or still in flight when the client stopped) names the stored match of one of our logs;
  - no API upload was rejected, every other status the client saw is counted as an error;
  - per ladder: each rated match (EL-1.2) has one sequence number and one RatingChange per
    player seated, sequences are 1..rated_matches each used by exactly one match, no
    unrated match has a change, and the stored ratings equal a recompute from scratch.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections import Counter, defaultdict
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

import engine  # noqa: E402
from games.models import Match, MatchSeat, Upload  # noqa: E402
from ladder.kernel import rated_games  # noqa: E402
from ladder.models import Ladder, Rating, RatingChange  # noqa: E402
from ladder.services import compute_ladder, rated_matches  # noqa: E402

OUT = PROJECT / "var" / "load"


def log_hashes() -> dict[str, str]:
    """sha256 of the canonical JSON of every upload log: what the server must have stored."""
    hashes = {}
    for line in (OUT / "uploads.txt").read_text(encoding="utf-8").splitlines():
        _club, path = line.split(" ", 1)
        document = json.loads(Path(path).read_text(encoding="utf-8"))
        hashes[hashlib.sha256(engine.canonical_json(document).encode()).hexdigest()] = path
    return hashes


def check_uploads(problems: list[str]) -> dict[str, int]:
    ours = log_hashes()
    statuses: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    created: set[int] = set()
    stored = dict(Match.objects.values_list("id", "content_hash"))
    for results in sorted(OUT.glob("upload-results-*.txt")):
        for line in results.read_text(encoding="utf-8").splitlines():
            status, match_id, answered_hash, error_code = line.split()
            statuses[status] += 1
            if status not in {"200", "201"}:
                errors[f"{status} {error_code}"] += 1
                continue
            if answered_hash not in ours or stored.get(int(match_id)) != answered_hash:
                problems.append(
                    f"answered {status} match {match_id} {answered_hash}: stored "
                    f"{stored.get(int(match_id))}, one of our logs: {answered_hash in ours}"
                )
            if status == "201":
                if int(match_id) in created:
                    problems.append(f"match {match_id} answered 201 twice")
                created.add(int(match_id))
    api = Upload.objects.filter(source=Upload.Source.API)
    accepted = dict(
        api.filter(status=Upload.Status.ACCEPTED).values_list("match_id", "content_hash")
    )
    for match_id, content_hash in accepted.items():
        if match_id is None or stored.get(match_id) != content_hash or content_hash not in ours:
            problems.append(f"accepted upload of {content_hash} has no such match ({match_id})")
    if not created <= set(accepted):
        problems.append(
            f"answered 201 but not recorded as accepted: {sorted(created - set(accepted))[:10]}"
        )
    if len(accepted) != api.filter(status=Upload.Status.ACCEPTED).count():
        problems.append("two accepted uploads name the same match")
    rejected = api.filter(status=Upload.Status.REJECTED).count()
    if rejected:
        problems.append(f"{rejected} API uploads rejected")
    if errors:
        problems.append(f"upload answers other than 200/201: {dict(errors)}")
    return {
        "answered": sum(statuses.values()),
        "created": len(created),
        "already_stored": statuses["200"],
        "errors": sum(errors.values()),
        # Sent before the time was up, answered after the client stopped listening:
        # stored all the same, and checked like the others.
        "accepted_unanswered": len(set(accepted) - created),
        "matches_from_our_logs": sum(1 for h in stored.values() if h in ours),
    }


def check_ratings(problems: list[str], pending: list[str]) -> dict[str, int]:
    # Players, not seats: one change per player of a match (a player may hold two seats).
    seats = Counter(
        match_id for match_id, _ in set(MatchSeat.objects.values_list("match_id", "player_id"))
    )
    rated_ids = set(rated_matches().filter(game__in=rated_games()).values_list("id", flat=True))
    changes: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for ladder_id, match_id, sequence in RatingChange.objects.values_list(
        "ladder_id", "match_id", "sequence"
    ):
        changes[match_id].append((ladder_id, sequence))
    unrated = sorted(rated_ids - set(changes))
    if unrated:
        pending.append(f"{len(unrated)} matches not rated yet, e.g. {unrated[:5]}")
    for match_id in sorted(set(changes) - rated_ids):
        problems.append(f"match {match_id} is not a rated match but has rating changes")
    by_ladder: dict[int, Counter[int]] = defaultdict(Counter)
    for match_id, rows in changes.items():
        ladders_and_sequences = set(rows)
        if len(ladders_and_sequences) != 1:
            problems.append(
                f"match {match_id} rated more than once: {sorted(ladders_and_sequences)}"
            )
            continue
        if len(rows) != seats[match_id]:
            problems.append(f"match {match_id}: {len(rows)} changes for {seats[match_id]} players")
        ladder_id, sequence = rows[0]
        by_ladder[ladder_id][sequence] += 1
    recomputed_ratings = 0
    for ladder in Ladder.objects.all():
        sequences = by_ladder.get(ladder.pk, Counter())
        if sorted(sequences) != list(range(1, ladder.rated_matches + 1)) or any(
            n != 1 for n in sequences.values()
        ):
            problems.append(
                f"ladder {ladder.pk}: sequences are not 1..{ladder.rated_matches} once each"
            )
        computed = compute_ladder(ladder)
        stored = dict(Rating.objects.filter(ladder=ladder).values_list("player_id", "rating"))
        again = computed.kernel.state.ratings
        if set(stored) != set(again) or any(abs(stored[p] - again[p]) > 1e-6 for p in stored):
            problems.append(f"ladder {ladder.pk}: stored ratings differ from a recompute")
        recomputed_ratings += len(again)
    return {
        "rated_matches": len(rated_ids) - len(unrated),
        "ladders": Ladder.objects.count(),
        "ratings_compared_with_recompute": recomputed_ratings,
    }


def main() -> int:
    problems: list[str] = []
    pending: list[str] = []
    report = {"uploads": check_uploads(problems), "matches": Match.objects.count()}
    report["ratings"] = check_ratings(problems, pending)
    report["problems"] = problems
    report["pending"] = pending
    report["ok"] = not problems and not pending
    print(json.dumps(report))
    return 1 if problems else 2 if pending else 0


if __name__ == "__main__":
    sys.exit(main())
