"""Hypothesis fuzz of ``games.services.ingest_log`` and of the upload API.

Arbitrary JSON (as parsed values, as text, as bytes) and real logs mutated in the
ways a broken client or a hostile one would (actions dropped, duplicated, swapped;
fields changed to other types, huge numbers, NaN, unicode, NUL and lone surrogates)
must end in one of the documented ways: a match (new or already stored), or a
``LogRejected`` whose code maps to 400/413/422. Never another exception (a 5xx),
and a rejected attempt leaves only its Upload record: no Match, MatchSeat or MatchLog.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from clubs.models import Club, Membership, Player
from config.api.errors import http_status
from games.models import Match, MatchLog, MatchSeat, Upload
from games.services import LogRejected, ingest_log
from tests.examples import example_text
from tests.games.logs import bot_log

pytestmark = pytest.mark.django_db

EXAMPLES = [
    "cryptid-escape.json",
    "cryptid-timeout.json",
    "misterx-destination.json",
    "cloak-documents.json",
    "cryptid-illegal-draw.json",
]
BOT_GAMES = [
    ("cryptid-urban-legends", ["alice", "bob"]),
    ("mister-x", ["alice", "bob", "carol"]),
    ("cloak-and-dagger", ["alice", "bob"]),
]


@cache
def real_logs() -> tuple[str, ...]:
    """The example logs and a few bot-played games, as JSON text (copied per use)."""
    texts = [example_text(name) for name in EXAMPLES]
    for game, players in BOT_GAMES:
        log = bot_log(game, 3, players)
        log["actions"] = log["actions"][:300]  # cloak's random bots play 2000 moves
        texts.append(json.dumps(log))
    return tuple(texts)


# --- strategies ---------------------------------------------------------------------

hostile_text = st.one_of(
    st.text(max_size=20),
    st.sampled_from(
        [
            "",
            "\x00",
            "\ud800",
            "a\udfffb",
            "<script>alert(1)</script>",
            "ﷺ" * 40,
            "e\u0301",
            "\u202eevil",
            "x" * 5000,
            "cryptid",
            "mrx",
            "det1",
            "p1",
        ]
    ),
)
hostile_number = st.one_of(
    st.integers(),
    st.sampled_from([2**64, -(2**63) - 1, 10**30, 2**1000, -1, 0]),
    st.floats(allow_nan=True, allow_infinity=True),
)
json_scalars = st.one_of(st.none(), st.booleans(), hostile_number, hostile_text)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(hostile_text, children, max_size=5),
    ),
    max_leaves=25,
)


def _containers(node: Any) -> list[Any]:
    """Every dict and list inside ``node`` (itself included), iteratively."""
    found, stack = [], [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            found.append(item)
            stack.extend(item)
    return found


@st.composite
def mutated_logs(draw) -> dict[str, Any]:
    log = json.loads(draw(st.sampled_from(real_logs())))
    for _ in range(draw(st.integers(1, 4))):
        actions = log.get("actions") if isinstance(log.get("actions"), list) else None
        kind = draw(
            st.sampled_from(["drop", "duplicate", "swap", "set", "delete", "top", "truncate"])
        )
        if kind in ("drop", "duplicate", "swap") and actions:
            i = draw(st.integers(0, len(actions) - 1))
            if kind == "drop":
                del actions[i]
            elif kind == "duplicate":
                actions.insert(i, copy.deepcopy(actions[i]))
            else:
                j = draw(st.integers(0, len(actions) - 1))
                actions[i], actions[j] = actions[j], actions[i]
        elif kind == "truncate" and actions:
            del actions[draw(st.integers(0, len(actions))) :]
        elif kind == "top":
            key = draw(
                st.sampled_from(
                    [
                        "format",
                        "game",
                        "options",
                        "seats",
                        "seed",
                        "setup",
                        "actions",
                        "result",
                        "meta",
                    ]
                )
            )
            log[key] = draw(json_values)
        else:
            target = draw(st.sampled_from(_containers(log)))
            if isinstance(target, dict) and target:
                key = draw(st.sampled_from(sorted(target)))
                if kind == "delete":
                    del target[key]
                else:
                    target[key] = draw(json_values)
            elif isinstance(target, list) and target:
                i = draw(st.integers(0, len(target) - 1))
                if kind == "delete":
                    del target[i]
                else:
                    target[i] = draw(json_values)
    return log


def _as_sent(log: Any, form: str) -> Any:
    """The document as a parsed dict, as text, or as UTF-8 bytes (surrogates escaped)."""
    if form == "dict" and isinstance(log, dict):
        return log
    text = json.dumps(log)  # ASCII: lone surrogates and NaN survive as JSON text
    return text if form == "text" else text.encode()


documents = st.one_of(
    st.tuples(json_values, st.sampled_from(["dict", "text", "bytes"])),
    st.tuples(mutated_logs(), st.sampled_from(["dict", "text", "bytes"])),
).map(lambda pair: _as_sent(*pair))
raw_bytes = st.binary(max_size=200)


# --- fixtures ------------------------------------------------------------------------


@pytest.fixture
def fuzz_club(db, django_user_model) -> tuple[Club, dict]:
    club = Club.objects.create(name="Fuzz Club", slug="fuzz")
    people = {}
    for role in ("organiser", "member"):
        people[role] = django_user_model.objects.create_user(username=f"fuzz-{role}")
        Membership.objects.create(user=people[role], club=club, role=role)
    for handle in ("alice", "bob"):
        Player.objects.create(club=club, handle=handle)
    return club, people


def _rows() -> tuple[int, int, int, int]:
    return (
        Match.objects.count(),
        MatchSeat.objects.count(),
        MatchLog.objects.count(),
        Upload.objects.count(),
    )


SETTINGS = settings(deadline=None, suppress_health_check=list(HealthCheck))


@SETTINGS
@given(document=st.one_of(documents, raw_bytes), who=st.sampled_from(["organiser", "member"]))
def test_ingest_log_accepts_or_rejects_and_never_leaves_partial_rows(fuzz_club, document, who):
    club, people = fuzz_club
    matches, seats, logs, uploads = _rows()
    try:
        match = ingest_log(club, document, people[who])
    except LogRejected as exc:
        event(f"rejected: {exc.code} {exc.rule}")
        assert http_status(exc) in (400, 413, 422)
        assert exc.message
        assert exc.upload is not None and exc.upload.status == Upload.Status.REJECTED
        assert exc.upload.error == exc.code
        assert _rows() == (matches, seats, logs, uploads + 1)
    else:
        event(f"stored: {match.status}" if match.created else "duplicate")
        added = 1 if match.created else 0
        assert _rows()[:3] == (matches + added, seats + added * match.seats.count(), logs + added)
        assert _rows()[3] == uploads + 1


@SETTINGS
@given(document=st.one_of(documents, raw_bytes))
def test_the_upload_api_answers_hostile_logs_without_a_server_error(fuzz_club, document, settings):
    settings.LANTERN_UPLOAD_RATE = "100000/min"
    club, people = fuzz_club
    client = APIClient()
    client.force_authenticate(people["organiser"])
    body = json.dumps(document) if isinstance(document, dict) else document
    matches, seats, logs, uploads = _rows()

    response = client.post(
        f"/api/clubs/{club.slug}/matches/", data=body, content_type="application/json"
    )

    assert response.status_code in (200, 201, 400, 413, 422), response.content[:500]
    if response.status_code >= 400:
        error = response.json()
        assert set(error) >= {"error", "index", "rule", "message", "upload"}
        assert _rows() == (matches, seats, logs, uploads + 1)
