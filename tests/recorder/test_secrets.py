"""Live games keep their secrets (issue #17), tried as a player would, over HTTP.

Each reproduction of the issue is replayed: a person against a bot, a member following
a game between two other people, and every probe a seat can send (legal actions with
prefixes, a refused apply and its message, chance options, undo). The counterfactual
tests play two games that a seat cannot tell apart (the same public history, and the
same things the seat itself saw) but whose hidden contents differ, and require every
answer the seat gets to be byte-identical (once the draft's id and clock are set aside).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from clubs.models import Player
from engine import Session, bots_of, get_game
from engine.games.cloak.state import ENVELOPES
from recorder import services
from recorder.models import Draft

pytestmark = pytest.mark.django_db

CLOAK = "cloak-and-dagger"
MX = "mister-x"


def page_of(user, draft_id: int) -> str:
    """The recording page as ``user``'s browser gets it."""
    from django.test import Client

    browser = Client()
    browser.force_login(user)
    response = browser.get(f"/clubs/riverside/record/{draft_id}/")
    assert response.status_code == 200
    return response.content.decode()


def create(client, game: str, seats: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    response = client.post(
        "/api/drafts/", {"club": "riverside", "game": game, "seats": seats, **fields}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()


def post(client, draft_id: int, verb: str, **body: Any):
    return client.post(f"/api/drafts/{draft_id}/{verb}/", body, format="json")


# --- the reproductions -----------------------------------------------------------------------


def test_a_game_against_a_bot_shows_only_the_persons_seat(api, club, people):
    client = api("member")
    draft = create(
        client, CLOAK, [{"seat": "p1", "player": "alice"}, {"seat": "p2", "bot": "greedy"}]
    )
    url = f"/api/drafts/{draft['id']}/"
    for asked in ({}, {"view": "all"}, {"view": "p2"}):
        seen = client.get(url, asked).json()
        assert seen["viewer"] == "p1" and seen["document"] is None
        view = seen["frame"]["view"]
        assert {"envelopes", "hands", "pile"}.isdisjoint(view)  # the all-seeing view's keys
        assert view["viewer"] == "p1"
    assert "seed" not in json.dumps(client.get(url).json())
    assert '"view": "p1"' in page_of(people["member"], draft["id"])


def test_mister_x_against_a_bot_hides_him(api, club):
    client = api("member")
    draft = create(
        client, MX, [{"seat": "mrx", "bot": "greedy"}, {"seat": "det1", "player": "alice"}]
    )
    url = f"/api/drafts/{draft['id']}/"
    for asked in ({}, {"view": "all"}, {"view": "mrx"}):
        seen = client.get(url, asked).json()
        assert seen["viewer"] == "detectives"  # det1 decides for the team too
        mrx = seen["frame"]["view"]["mrx"]
        assert mrx["position"] is None and "rack" not in mrx and "path" not in mrx
        assert "bag" not in seen["frame"]["view"] and seen["document"] is None
        for move in seen["moves"]:  # hidden slots: a face-up ticket at most, no city
            assert '"to"' not in json.dumps(move["action"])


def test_following_a_game_shows_what_is_announced_and_a_seated_member_their_seat(api, club, people):
    recorder = api("member")
    draft = create(
        recorder,
        MX,
        [{"seat": "mrx", "player": "alice"}, {"seat": "det1", "player": "bob"}],
        chance="server",
    )
    url = f"/api/drafts/{draft['id']}/"
    Player.objects.filter(club=club, handle="bob").update(user=people["other"])
    follower = api("organiser").get(url).json()
    assert follower["viewer"] == "public" and follower["frame"]["view"]["mrx"]["position"] is None
    assert "tickets" not in json.dumps(follower["frame"]["view"]["racks"])
    seated = api("other").get(url).json()
    assert seated["viewer"] == "detectives" and seated["frame"]["view"]["mrx"]["position"] is None
    page = page_of(people["organiser"], draft["id"])
    assert "announced to all" in page and '"view": "public"' in page


# --- counterfactual games -----------------------------------------------------------------------


def _seat_transcript(
    game_id: str,
    seats: list[dict[str, Any]],
    human: str,
    seed: int,
    given: dict[str, Any],
    turns: int,
    policy: Callable[[list[dict[str, Any]]], dict[str, Any]],
) -> tuple[str, str]:
    """Play the draft a seed would give (as recorder.services does) with ``policy`` choosing
    the person's moves from their own choices; return (what the person saw, what was hidden)."""
    game = get_game(game_id)
    options = game.normalize_options({})
    ids = [e["seat"] for e in seats]
    bots = {e["seat"]: e["bot"] for e in seats if "bot" in e}
    setup = {**game.random_setup_choices(options, ids, services.bot_rng(seed, -1)), **given}
    session = Session(game, options, ids, setup, seed)
    viewer = human
    seen: list[Any] = []
    made = 0
    while not session.is_over:
        seat = session.to_act[0]
        if game.controller(seat) in bots:  # the bots answer at once, as in the recorder
            bot = bots_of(game)[bots[game.controller(seat)]]
            session.step(bot(game, session.state, seat, services.bot_rng(seed, session.ply)))
            continue
        if made == turns:
            break
        choices = session.legal_actions(seat, viewer)
        seen.append([session.view(viewer), session.history(viewer), choices])
        if session.step(policy(choices), viewer) is not None:
            made += 1
    seen.append([session.view(viewer), session.history(viewer)])
    return json.dumps(seen, sort_keys=True), json.dumps(
        game.view(session.state, None), sort_keys=True
    )


Deal = tuple[int, dict[str, Any]]  # a seed, and the setup choices given with it


def _twins(
    game_id: str,
    seats: list[dict[str, Any]],
    human: str,
    turns: int,
    policy: Callable[[list[dict[str, Any]]], dict[str, Any]],
    deals: list[Deal],
) -> tuple[Deal, Deal]:
    """Two deals whose games the person cannot tell apart but whose hidden state differs.
    Deals are first grouped by what the person sees before any move (cheap), and only
    deals that share their start are played on."""
    starts: dict[str, list[Deal]] = {}
    for deal in deals:
        starts.setdefault(_seat_transcript(game_id, seats, human, *deal, 0, policy)[0], []).append(
            deal
        )
    by_transcript: dict[str, tuple[Deal, str]] = {}
    for deal in [deal for group in starts.values() if len(group) > 1 for deal in group]:
        seen, hidden = _seat_transcript(game_id, seats, human, *deal, turns, policy)
        if seen in by_transcript and by_transcript[seen][1] != hidden:
            return by_transcript[seen][0], deal
        by_transcript.setdefault(seen, (deal, hidden))
    raise AssertionError("no two deals give the same public history")


_VOLATILE = re.compile(r'("(?:created_at|updated_at|played_at)": ?)"[^"]*"')


def _normal(text: str, draft_id: int) -> str:
    """The answer with the draft's id and its clock set aside (they differ between any two
    drafts, hidden contents or not)."""
    text = _VOLATILE.sub(r'\1"T"', text)
    for where in (
        "/drafts/{}/",
        "/record/{}/",
        '"id": {},',
        '"draft": {},',
        '"draft": {}}}',
        "draft #{}<",
        'data-draft="{}"',
        "draft {}<",
    ):
        text = text.replace(where.format(draft_id), where.format("ID"))
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "CSRF", text)
    return re.sub(r'"csrfToken": ?"[^"]*"', '"csrfToken": "X"', text)


def _answers(
    client,
    user,
    monkeypatch,
    deal: Deal,
    game_id: str,
    seats: list[dict[str, Any]],
    script: list[tuple[str, Any]],
) -> list[str]:
    """Every answer the person gets for ``script`` in the draft ``deal`` gives."""
    seed, given = deal
    monkeypatch.setattr(services.secrets, "randbelow", lambda limit: seed)
    draft = create(client, game_id, seats, setup=given)
    draft_id = draft["id"]
    url = f"/api/drafts/{draft_id}/"
    out = [_normal(json.dumps(draft, sort_keys=True), draft_id)]

    def keep(response) -> dict[str, Any]:
        body = response.json()
        out.append(f"{response.status_code} " + _normal(json.dumps(body, sort_keys=True), draft_id))
        return body

    version = draft["version"]
    for verb, arg in script:
        if verb == "play":  # the first value of every field, then the first action listed
            prefix: dict[str, Any] = {}
            while True:
                step = keep(client.get(f"{url}legal-actions/", {"prefix": json.dumps(prefix)}))
                if step["field"] is None:
                    break
                prefix = {**step["prefix"], step["field"]: step["values"][0]["value"]}
            if step["seat"] is None:  # the game is over
                continue
            body = keep(
                post(
                    client, draft_id, "apply", version=version, action=step["actions"][0]["action"]
                )
            )
            version = body.get("version", version)
        elif verb == "raw":  # a body as a hostile client might send it
            path, payload = arg
            keep(client.post(f"{url}{path}/", payload, format="json"))
        elif verb == "stale":
            keep(post(client, draft_id, "apply", version=version - 1, action=arg))
        elif verb == "get":
            version = keep(client.get(url))["version"]
        elif verb == "legal":
            keep(client.get(f"{url}legal-actions/", {"prefix": json.dumps(arg)} if arg else {}))
        elif verb == "chance":
            keep(post(client, draft_id, "chance-options", action=arg))
        elif verb == "apply":
            last = (version, arg)
            body = keep(post(client, draft_id, "apply", version=version, action=arg))
            version = body.get("version", version)
        elif verb == "repeat":  # the last apply sent again: its stored answer, as first sent
            keep(post(client, draft_id, "apply", version=last[0], action=last[1]))
        elif verb == "undo":
            body = keep(post(client, draft_id, "undo", version=version))
            version = body.get("version", version)
        elif verb == "page":
            out.append(_normal(page_of(user, draft_id), draft_id))
    return out


def _first_walked(listed: list[dict[str, Any]]) -> dict[str, Any]:
    """The action the ``play`` probe picks through the API: the first value of every field
    the chooser asks for, then the first action listed (recorder.choices)."""
    from recorder.choices import choose

    prefix: dict[str, Any] = {}
    while True:
        step = choose(listed, prefix)
        if step.field is None:
            return step.actions[0]
        prefix = {**step.prefix, step.field: step.values[0]["value"]}


def _same_answers(
    api,
    people,
    monkeypatch,
    game_id: str,
    seats: list[dict[str, Any]],
    twins: tuple[Deal, Deal],
    probes: list[tuple[str, Any]],
) -> list[str]:
    """Play ``probes`` in both twin drafts as the member; every answer must be the same."""
    client = api("member")
    one = _answers(client, people["member"], monkeypatch, twins[0], game_id, seats, probes)
    two = _answers(client, people["member"], monkeypatch, twins[1], game_id, seats, probes)
    assert len(one) == len(two)
    for a, b in zip(one, two, strict=True):
        assert a == b
    return one


def _first_open_then_examine(choices: list[dict[str, Any]]) -> dict[str, Any]:
    """The person's way of playing: a drop where they must, else open the first envelope
    and examine it (their own moves never depend on anything but their choices)."""
    return choices[0]


def test_cloak_probes_tell_nothing_about_unopened_envelopes(api, club, people, monkeypatch):
    seats = [{"seat": "p1", "player": "alice"}, {"seat": "p2", "bot": "greedy"}]
    first, second = _twins(
        CLOAK, seats, "p1", 4, _first_open_then_examine, [(seed, {}) for seed in range(1, 400)]
    )
    probes: list[tuple[str, Any]] = [
        ("apply", {"seat": "p1", "type": "drop", "envelope": 1}),
        ("get", None),
        ("legal", None),
    ]
    for n in range(1, ENVELOPES + 1):  # every envelope, as the probes did
        probes += [
            ("legal", {"envelope": n}),
            ("legal", {"type": "place"}),
            ("apply", {"seat": "p1", "type": "place", "envelope": n}),
            ("apply", {"seat": "p1", "type": "place", "envelope": n, "card": "X"}),
            ("apply", {"seat": "p1", "type": "examine", "envelope": n}),
            ("apply", {"seat": "p1", "type": "take", "envelope": n, "spy": "D", "second": "X"}),
            ("chance", {"seat": "p1", "type": "place", "envelope": n}),
        ]
    probes += [
        ("undo", None),
        ("page", None),
        ("apply", {"seat": "p1", "type": "open", "envelope": 1}),
        ("repeat", None),
        ("legal", None),
        ("apply", {"seat": "p1", "type": "open", "envelope": 2}),
        ("apply", {"seat": "p1", "type": "place", "envelope": 2}),
        ("apply", {"seat": "p1", "type": "examine", "envelope": 1}),
        ("get", None),
        ("undo", None),
        ("page", None),
    ]
    client = api("member")
    one = _answers(client, people["member"], monkeypatch, first, CLOAK, seats, probes)
    two = _answers(client, people["member"], monkeypatch, second, CLOAK, seats, probes)
    assert len(one) == len(two)
    for a, b in zip(one, two, strict=True):
        assert a == b
    # The probes were really answered (not all refused for some other reason).
    assert any(line.startswith("200 ") and '"type": "open"' in line for line in one)
    # The repeated open was answered as the first (the same text), not refused as stale.
    opened = one.index(next(line for line in one if line.startswith("200 ") and '"opened"' in line))
    assert one[opened + 1] == one[opened]
    assert any('"rule": "CD-3"' in line for line in one)
    assert any('"rule": "REC-UNDO"' in line for line in one)


def test_picking_an_envelope_is_opening_it(api, club, monkeypatch):
    client = api("member")
    draft = create(
        client, CLOAK, [{"seat": "p1", "player": "alice"}, {"seat": "p2", "bot": "greedy"}]
    )
    draft_id = draft["id"]
    draft = post(
        client,
        draft_id,
        "apply",
        version=draft["version"],
        action={"seat": "p1", "type": "drop", "envelope": 4},
    ).json()
    choice = client.get(f"/api/drafts/{draft_id}/legal-actions/").json()
    assert [entry["action"]["type"] for entry in choice["actions"]] == ["open"] * ENVELOPES
    opened = post(
        client,
        draft_id,
        "apply",
        version=draft["version"],
        action={"seat": "p1", "type": "open", "envelope": 4},
    ).json()
    assert opened["ply"] == draft["ply"]  # a pick is not an action of the log
    assert opened["frame"]["view"]["opened"]["p1"]["envelope"] == 4
    # p1's own spies are inside (the bot may have dropped its pair there too).
    assert {"D", "d"} <= set(opened["frame"]["view"]["opened"]["p1"]["contents"])
    inside = client.get(f"/api/drafts/{draft_id}/legal-actions/").json()
    assert {entry["action"]["envelope"] for entry in inside["actions"]} == {4}
    assert {entry["action"]["type"] for entry in inside["actions"]} == {"examine", "take"}
    # Committed: another envelope is refused, and reloading keeps the pick.
    other = post(
        client,
        draft_id,
        "apply",
        version=opened["version"],
        action={"seat": "p1", "type": "examine", "envelope": 5},
    )
    assert other.status_code == 422 and other.json()["rule"] == "CD-3"
    assert Draft.objects.get(pk=draft_id).opened == {
        "p1": {"seat": "p1", "type": "open", "envelope": 4}
    }
    took = post(
        client,
        draft_id,
        "apply",
        version=opened["version"],
        action={"seat": "p1", "type": "take", "envelope": 4, "spy": "D", "second": None},
    )
    assert took.status_code == 200 and Draft.objects.get(pk=draft_id).opened == {}


def _mister_x_probes() -> list[tuple[str, Any]]:
    """Every endpoint a detective can call, refused and accepted alike."""
    probes: list[tuple[str, Any]] = [
        ("get", None),
        ("legal", None),
        ("page", None),
        ("legal", {"type": "move"}),
        ("legal", {"type": "stay"}),
    ]
    for pawn in ("red", "blue", "green", "yellow", "black"):
        probes += [
            ("legal", {"pawn": pawn}),
            ("legal", {"pawn": pawn, "ticket": "car/double"}),
            (
                "apply",
                {"seat": "det1", "type": "move", "pawn": pawn, "ticket": "car/double", "to": 1},
            ),
            (
                "apply",
                {"seat": "det1", "type": "move", "pawn": pawn, "ticket": "plane/siren", "to": 199},
            ),
            ("apply", {"seat": "det1", "type": "move", "pawn": pawn, "ticket": "bus/1", "to": 2}),
            ("apply", {"seat": "det1", "type": "stay", "pawn": pawn}),
            (
                "chance",
                {"seat": "det1", "type": "move", "pawn": pawn, "ticket": "car/double", "to": 1},
            ),
        ]
    probes += [
        ("apply", {"seat": "mrx", "type": "move", "ticket": "car/double", "to": 1}),
        ("apply", {"seat": "det1", "type": "refill", "tickets": ["car/siren"]}),
        ("apply", {"seat": "det1", "type": "refill"}),
        ("apply", {"seat": "det1", "type": "discard", "tickets": []}),
        (
            "apply",
            {"seat": "detectives", "type": "investigate", "pay": {"det1": ["car/investigate"] * 3}},
        ),
        ("apply", {"seat": "det1", "type": "fly"}),
        ("chance", {"seat": "det1", "type": "refill"}),
        ("stale", {"seat": "det1", "type": "stay", "pawn": "red"}),
        ("raw", ("apply", {"version": 1, "action": "move"})),
        ("raw", ("apply", {"action": {"seat": "det1"}})),
        ("raw", ("chance-options", {"action": {"seat": "mrx", "type": "move"}})),
        ("undo", None),
    ]
    return probes


def test_mister_x_probes_tell_the_detectives_nothing_hidden(api, club, people, monkeypatch):
    """Detail, create, legal actions (with prefixes), apply (legal and refused), chance
    options, errors, undo and the page: the same for the detectives whatever city Mister X
    started from and whatever his mission (MX-5: his position and rack are his)."""
    seats = [{"seat": "mrx", "bot": "greedy"}, {"seat": "det1", "player": "alice"}]
    from engine.games.misterx.board import resolve_board

    board = resolve_board(get_game(MX).normalize_options({})["board"])
    # The same deal (seed) for the detectives; Mister X starts in another city.
    deals = [
        (seed, {"mission": colour, "start": start})
        for seed in range(1, 30)
        for colour, mission in sorted(board.missions.items())
        for start in mission.starts
    ]
    twins = _twins(MX, seats, "detectives", 7, _first_walked, deals)
    probes = _mister_x_probes()
    for _ in range(7):  # the moves the twins were found with, each followed by every probe
        probes += [("play", None), *_mister_x_probes()]
    one = _same_answers(api, people, monkeypatch, MX, seats, twins, probes)
    # The probes were really answered: moves made, refusals citing the rules.
    assert sum(line.startswith("200 ") and '"type": "move"' in line for line in one) >= 7
    for rule in ("MX-3.7", "MX-6.8", "REC-BOT", "REC-UNDO"):
        assert any(f'"rule": "{rule}"' in line for line in one), rule
    assert any(line.startswith("409 ") for line in one)


def _detective_racks_dealt_from(alt: int) -> Callable[..., Any]:
    """``draw_from`` as the Mister X rules call it, except that the detectives' starting
    racks (MX-2.1) come from another stream: the pawns' cities and Mister X's own rack are
    dealt as the seed deals them, so Mister X starts from the same table but the
    detectives hold other tickets (and the bag holds the rest)."""
    import sys

    from engine.core.rng import Rng
    from engine.games.misterx import rules

    real = rules.draw_from

    def draw_from(bag, count, rng):
        dealing = sys._getframe(1)  # the initial deal loops ``for seat in order``
        if dealing.f_code.co_name == "new_state" and dealing.f_locals.get("seat") not in (
            None,
            "mrx",
        ):
            rng = Rng(alt)
        return real(bag, count, rng)

    return draw_from


def _mister_x_seat_probes() -> list[tuple[str, Any]]:
    """Every endpoint Mister X can call, refused and accepted alike. (An unnamed refill is
    left out: where it is legal it draws, and Mister X sees what he draws — from a bag that
    differs between the twins, as the table's bag would.)"""
    probes: list[tuple[str, Any]] = [
        ("get", None),
        ("legal", None),
        ("page", None),
        ("legal", {"type": "move"}),
        ("legal", {"type": "secret"}),
    ]
    for ticket in ("car/double", "car/secret", "train/siren", "plane/investigate", "bus/1"):
        probes += [
            ("legal", {"ticket": ticket}),
            ("apply", {"seat": "mrx", "type": "move", "ticket": ticket, "to": 1}),
            ("apply", {"seat": "mrx", "type": "secret", "ticket": ticket, "to": 199}),
            ("chance", {"seat": "mrx", "type": "move", "ticket": ticket, "to": 1}),
        ]
    probes += [
        ("apply", {"seat": "det1", "type": "move", "pawn": "red", "ticket": "car/double", "to": 1}),
        (
            "apply",
            {"seat": "detectives", "type": "investigate", "pay": {"det1": ["car/investigate"] * 3}},
        ),
        ("apply", {"seat": "mrx", "type": "refill", "tickets": ["car/siren"]}),
        ("apply", {"seat": "mrx", "type": "pass"}),
        ("chance", {"seat": "mrx", "type": "refill"}),
        ("chance", {"seat": "det1", "type": "refill"}),
        ("stale", {"seat": "mrx", "type": "pass"}),
        ("raw", ("apply", {"version": 1, "action": "move"})),
        ("raw", ("chance-options", {"action": {"seat": "det1", "type": "move"}})),
        ("undo", None),
    ]
    return probes


def test_mister_x_probes_tell_mister_x_nothing_of_the_detectives_racks(
    api, club, people, monkeypatch
):
    """Mister X against bot detectives: the detectives' racks and the bag are theirs
    (MX-5). Two games dealt alike except for the detectives' tickets, whose public history
    (the tickets the detectives lay, their pawns' cities) is the same for the moves played,
    answer Mister X identically on every endpoint."""
    from engine.games.misterx import opening
    from engine.games.misterx.board import resolve_board

    seats = [{"seat": "mrx", "player": "alice"}, {"seat": "det1", "bot": "greedy"}]
    board = resolve_board(get_game(MX).normalize_options({})["board"])
    colour = sorted(board.missions)[0]
    deal: Deal = (7, {"mission": colour, "start": board.missions[colour].starts[0]})
    turns = 2
    seen, hidden = _seat_transcript(MX, seats, "mrx", *deal, turns, _first_walked)
    for alt in range(1, 400):
        with monkeypatch.context() as patched:
            patched.setattr(opening, "draw_from", _detective_racks_dealt_from(alt))
            other_seen, other_hidden = _seat_transcript(
                MX, seats, "mrx", *deal, turns, _first_walked
            )
        if other_seen == seen and other_hidden != hidden:
            break
    else:
        raise AssertionError("no other deal of the detectives' racks gives the same public history")
    probes = _mister_x_seat_probes()
    for _ in range(turns):
        probes += [("play", None), *_mister_x_seat_probes()]
    client = api("member")
    one = _answers(client, people["member"], monkeypatch, deal, MX, seats, probes)
    with monkeypatch.context() as patched:
        patched.setattr(opening, "draw_from", _detective_racks_dealt_from(alt))
        two = _answers(client, people["member"], monkeypatch, deal, MX, seats, probes)
    assert len(one) == len(two)
    for a, b in zip(one, two, strict=True):
        assert a == b
    # The probes were really answered: moves made, refusals citing the rules, and the two
    # games really differ where Mister X cannot look.
    assert sum(line.startswith("200 ") and '"type": "move"' in line for line in one) >= turns
    for rule in ("MX-6.8", "REC-UNDO"):
        assert any(f'"rule": "{rule}"' in line for line in one), rule
    assert any(line.startswith("409 ") for line in one)


def test_a_seat_never_names_what_chance_deals(api, club):
    """A named chance outcome is refused whatever its value: right or wrong, the same answer."""
    client = api("member")
    draft = create(
        client, MX, [{"seat": "mrx", "bot": "greedy"}, {"seat": "det1", "player": "alice"}]
    )
    draft_id = draft["id"]
    for tickets in (["car/1"], ["plane/1", "plane/1"], []):
        response = post(
            client,
            draft_id,
            "apply",
            version=draft["version"],
            action={"seat": "det1", "type": "refill", "tickets": tickets},
        )
        assert response.status_code == 422
        assert response.json()["rule"] == "MX-6.8" and "leave it out" in response.json()["message"]


def test_cryptid_a_named_draw_is_refused_the_same_whatever_the_deck_holds(api, club):
    """Cryptid's hidden facts are the decks' order and the other hand; the only probe that
    could name them is a draw's cards, refused alike for any cards (CUL-2.4)."""
    client = api("member")
    draft = create(
        client,
        "cryptid-urban-legends",
        [{"seat": "cryptid", "player": "alice"}, {"seat": "scientist", "bot": "greedy"}],
    )
    seat = draft["seat"]
    answers = set()
    for cards in (["split", "split"], ["align", "shuffle"], ["shuffle"], []):
        response = post(
            client,
            draft["id"],
            "apply",
            version=draft["version"],
            action={"seat": seat, "type": "draw", "cards": cards},
        )
        assert response.status_code == 422
        answers.add(json.dumps(response.json(), sort_keys=True))
    assert len(answers) == 1 and '"rule": "CUL-2.4"' in answers.pop()
    assert Draft.objects.get(pk=draft["id"]).version == draft["version"]


CRYPTID = "cryptid-urban-legends"


def _cryptid_probes(seat: str) -> list[tuple[str, Any]]:
    other = "scientist" if seat == "cryptid" else "cryptid"
    probes: list[tuple[str, Any]] = [("get", None), ("legal", None), ("page", None)]
    for kind in ("play", "wild", "draw", "declare", "blockade", "relocate", "expand"):
        probes.append(("legal", {"type": kind}))
    for card in ("split", "shuffle", "align"):
        probes += [
            ("legal", {"card": card}),
            ("legal", {"type": "play", "card": card}),
            ("apply", {"seat": seat, "type": "play", "card": card}),
            ("apply", {"seat": seat, "type": "play", "card": card, "from": 0, "to": 9}),
            ("apply", {"seat": seat, "type": "wild", "as": card}),
            ("apply", {"seat": seat, "type": "draw", "cards": [card]}),
            ("chance", {"seat": seat, "type": "play", "card": card}),
        ]
    probes += [
        ("apply", {"seat": seat, "type": "draw", "cards": []}),
        ("apply", {"seat": seat, "type": "expand", "left": "A1", "right": "B2"}),
        ("apply", {"seat": seat, "type": "declare"}),
        ("apply", {"seat": seat, "type": "blockade", "side": "left"}),
        ("apply", {"seat": seat, "type": "relocate", "to": {}}),
        ("apply", {"seat": other, "type": "draw"}),
        ("apply", {"seat": seat, "type": "teleport"}),
        ("chance", {"seat": seat, "type": "draw"}),
        ("chance", {"seat": seat, "type": "expand"}),
        ("stale", {"seat": seat, "type": "draw"}),
        ("raw", ("apply", {"version": 1, "action": ["draw"]})),
        ("raw", ("chance-options", {"action": {"seat": other, "type": "draw"}})),
        ("undo", None),
    ]
    return probes


@pytest.mark.parametrize("human", ["cryptid", "scientist"])
def test_cryptid_probes_tell_a_seat_nothing_of_the_decks_or_the_other_hand(
    api, club, people, monkeypatch, human
):
    """Every endpoint, for either seat against a bot: the same answers whatever order the
    decks were shuffled into and whatever the other seat holds (CUL-5), as long as what
    the seat saw (its own hand and draws, the public table) is the same."""
    bot = "scientist" if human == "cryptid" else "cryptid"
    seats = sorted(
        [{"seat": human, "player": "alice"}, {"seat": bot, "bot": "greedy"}],
        key=lambda entry: entry["seat"] != "cryptid",
    )
    # Twins get rarer with every move the bot makes from its own draws: 20,000 seeds give
    # hundreds of pairs alike for the cryptid's first five moves, dozens for the scientist's two.
    turns = 5 if human == "cryptid" else 2
    twins = _twins(
        CRYPTID, seats, human, turns, _first_walked, [(seed, {}) for seed in range(1, 20000)]
    )
    probes = _cryptid_probes(human)
    for _ in range(turns):
        probes += [("play", None), *_cryptid_probes(human)]
    one = _same_answers(api, people, monkeypatch, CRYPTID, seats, twins, probes)
    assert sum(line.startswith("200 ") and '"frame"' in line for line in one) >= turns
    for rule in ("CUL-2.4", "REC-BOT", "REC-UNDO"):
        assert any(f'"rule": "{rule}"' in line for line in one), rule
