"""The draft API: refusals (illegal 422 with the rule, stale 409, closed), undo, bots,
permissions per role, the list of open drafts, and the OpenAPI schema."""

from __future__ import annotations

import json
from typing import Any

import pytest

from clubs.models import Player
from engine import get_game, play, replay
from games.models import Match
from recorder import selectors
from recorder.models import Draft

pytestmark = pytest.mark.django_db

CLOAK_LOG = None


def cloak_log() -> dict[str, Any]:
    global CLOAK_LOG
    if CLOAK_LOG is None:
        CLOAK_LOG = play("cloak-and-dagger", 21, ["greedy", "greedy"], players=["alice", "bob"])
    return CLOAK_LOG


def new_draft(client, **fields: Any) -> dict[str, Any]:
    body = {
        "club": "riverside",
        "game": "cloak-and-dagger",
        "chance": "table",
        "seats": [{"seat": "p1", "player": "alice"}, {"seat": "p2", "player": "bob"}],
        "setup": cloak_log()["setup"],
    }
    body.update(fields)
    response = client.post("/api/drafts/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def post(client, draft: dict[str, Any], verb: str, **body: Any):
    return client.post(f"/api/drafts/{draft['id']}/{verb}/", body, format="json")


def advance(client, draft: dict[str, Any], count: int) -> dict[str, Any]:
    for action in cloak_log()["actions"][draft["ply"] : draft["ply"] + count]:
        response = post(client, draft, "apply", version=draft["version"], action=action)
        assert response.status_code == 200, response.json()
        draft = response.json()
    return draft


# --- refusals -------------------------------------------------------------------------------


def test_an_illegal_action_is_refused_with_its_rule_and_nothing_changes(api, club):
    client = api("member")
    draft = advance(client, new_draft(client), 3)
    stored = Draft.objects.get(pk=draft["id"])
    seat = draft["seat"]
    other = "p1" if seat == "p2" else "p2"
    cases = [
        ({"seat": other, "type": "examine", "envelope": 1}, "CD-1.3"),  # not their turn
        ({"seat": seat, "type": "dance", "envelope": 1}, "CD-3.5"),  # no such action
        ({"seat": seat, "type": "examine", "envelope": 99}, None),  # no such envelope
        ("examine", "LOG-ACTIONS"),  # not an object
    ]
    for action, rule in cases:
        response = post(client, draft, "apply", version=draft["version"], action=action)
        assert response.status_code == 422, response.json()
        body = response.json()
        assert body["error"] == "illegal" and body["index"] == draft["ply"] and body["rule"]
        if rule:
            assert body["rule"] == rule
        assert body["message"]
    after = Draft.objects.get(pk=draft["id"])
    assert (after.version, after.actions, after.moves) == (
        stored.version,
        stored.actions,
        stored.moves,
    )


def test_a_stale_version_is_refused_and_told_to_reload(api, club):
    client = api("member")
    draft = new_draft(client)
    first_tab = draft
    second_tab = advance(client, draft, 1)
    # The first tab, not knowing, records a different action at the same version.
    other = {
        **cloak_log()["actions"][0],
        "envelope": cloak_log()["actions"][0]["envelope"] % 20 + 1,
    }
    response = post(client, first_tab, "apply", version=first_tab["version"], action=other)
    assert response.status_code == 409
    body = response.json()
    assert body["error"] == "stale" and "reload" in body["message"]
    assert body["version"] == second_tab["version"]
    for verb in ("undo", "finish", "abandon"):
        assert post(client, first_tab, verb, version=first_tab["version"]).status_code == 409
    assert Draft.objects.get(pk=draft["id"]).actions == cloak_log()["actions"][:1]


def test_a_write_needs_a_version(api, club):
    client = api("member")
    draft = new_draft(client)
    response = post(client, draft, "apply", action=cloak_log()["actions"][0])
    assert response.status_code == 400 and response.json()["error"] == "malformed"


def test_a_finished_or_abandoned_draft_is_closed(api, club):
    client = api("member")
    draft = advance(client, new_draft(client), 2)
    abandoned = post(client, draft, "abandon", version=draft["version"]).json()
    assert abandoned["status"] == "abandoned" and abandoned["match"] is None
    response = post(
        client, abandoned, "apply", version=abandoned["version"], action=cloak_log()["actions"][2]
    )
    assert response.status_code == 409 and response.json()["error"] == "closed"
    assert Match.objects.count() == 0


def test_a_bad_setup_is_refused_with_the_engine_rule(api, club):
    client = api("member")
    response = client.post(
        "/api/drafts/",
        {
            "club": "riverside",
            "game": "cryptid-urban-legends",
            "chance": "table",
            "seats": [
                {"seat": "cryptid", "player": "alice"},
                {"seat": "scientist", "player": "bob"},
            ],
            "setup": {"sensors_2r2w1b": "left"},  # no hands: the table must say what was dealt
        },
        format="json",
    )
    assert response.status_code == 422
    assert response.json()["rule"] == "CUL-2.4"
    response = client.post(
        "/api/drafts/",
        {
            "club": "riverside",
            "game": "cloak-and-dagger",
            "seats": [{"seat": "p2", "player": "alice"}, {"seat": "p1", "player": "bob"}],
        },
        format="json",
    )
    assert response.status_code == 422 and response.json()["rule"] == "REC-SEATS"
    response = client.post(
        "/api/drafts/", {"club": "riverside", "game": "chess", "seats": []}, format="json"
    )
    assert response.status_code == 400
    assert Draft.objects.count() == 0


def test_cloak_and_dagger_offers_the_search_level(api, club):
    response = api("member").post(
        "/api/drafts/",
        {
            "club": "riverside",
            "game": "cloak-and-dagger",
            "seats": [{"seat": "p1", "bot": "search"}, {"seat": "p2", "player": "alice"}],
        },
        format="json",
    )
    assert response.status_code == 201


@pytest.mark.parametrize(
    "seats",
    [
        [{"seat": "p2", "player": "alice"}, {"seat": "p1", "player": "bob"}],  # not in seat order
        [{"seat": "p1", "player": "alice"}],  # one player: the game needs two to six
        [{"seat": "p1", "bot": "greedy"}, {"seat": "p2", "bot": "random"}],  # nobody's game
    ],
)
def test_rec_seats_refusals_cite_the_recorders_rule_and_link_its_text(api, club, seats):
    response = api("member").post(
        "/api/drafts/",
        {"club": "riverside", "game": "cloak-and-dagger", "seats": seats},
        format="json",
    )
    assert response.status_code == 422
    assert response.json()["rule"] == "REC-SEATS"
    assert response.json()["rule_url"] == "http://testserver/rules/log-format/#REC-SEATS"
    assert Draft.objects.count() == 0


def test_rec_bot_a_bots_seat_is_not_the_persons_to_play(api, club):
    client = api("member")
    draft = new_draft(
        client,
        chance=None,
        setup={},
        seats=[{"seat": "p1", "player": "alice"}, {"seat": "p2", "bot": "random"}],
    )
    first = client.get(f"/api/drafts/{draft['id']}/legal-actions/").json()["actions"][0]["action"]
    draft = post(client, draft, "apply", version=draft["version"], action=first).json()
    assert draft["seat"] == "p1" and draft["ply"] == 2  # the bot answered
    response = post(
        client,
        draft,
        "apply",
        version=draft["version"],
        action={"seat": "p2", "type": "examine", "envelope": 1},
    )
    assert response.status_code == 422
    body = response.json()
    assert (body["rule"], body["index"]) == ("REC-BOT", 2)
    assert body["rule_url"].endswith("/rules/log-format/#REC-BOT")
    assert len(Draft.objects.get(pk=draft["id"]).actions) == 2


def test_unknown_handles_need_an_organiser(api, club):
    seats = [{"seat": "p1", "player": "alice"}, {"seat": "p2", "player": "zed"}]
    response = api("member").post(
        "/api/drafts/",
        {"club": "riverside", "game": "cloak-and-dagger", "seats": seats},
        format="json",
    )
    assert response.status_code == 422 and response.json()["handles"] == ["zed"]
    draft = new_draft(api("organiser"), seats=seats, setup={})
    assert draft["seats"][1]["player"] == "zed"


# --- undo -------------------------------------------------------------------------------------


def test_undo_takes_back_the_last_action_only(api, club):
    client = api("member")
    draft = advance(client, new_draft(client), 4)
    undone = post(client, draft, "undo", version=draft["version"]).json()
    assert undone["ply"] == 3 and undone["version"] == draft["version"] + 1
    assert Draft.objects.get(pk=draft["id"]).actions == cloak_log()["actions"][:3]
    assert undone["seat"] == cloak_log()["actions"][3]["seat"]
    redone = advance(client, undone, 1)
    assert redone["document"]["actions"] == cloak_log()["actions"][:4]
    fresh = new_draft(client)
    response = post(client, fresh, "undo", version=fresh["version"])
    # well formed, but not possible in the draft's state: a conflict, as stale and closed are
    assert response.status_code == 409 and response.json()["error"] == "nothing_to_undo"


# --- bots --------------------------------------------------------------------------------------


def test_rec_undo_bots_move_server_side_and_undo_is_off_against_them(api, club):
    client = api("member")
    draft = new_draft(
        client,
        chance=None,
        setup={},
        seats=[{"seat": "p1", "bot": "greedy"}, {"seat": "p2", "player": "alice"}],
    )
    # The bot sits first: it has moved already; the server deals (a seed in the log), and
    # the person sees with their seat's eyes: no log (it holds the seed and the bot's hand).
    assert draft["chance"] == "server" and Draft.objects.get(pk=draft["id"]).seed is not None
    assert draft["viewer"] == "p2" and draft["document"] is None
    assert draft["ply"] == 1 and draft["moves"][0]["bot"] and draft["seat"] == "p2"
    assert draft["seats"][0] == {
        "seat": "p1",
        "player": "bot-greedy",
        "bot": "greedy",
        "bot_name": "medium bot",
    }
    assert Player.objects.filter(club=club, handle="bot-greedy").exists()
    # A bot's seat is not the person's to play.
    response = post(
        client,
        draft,
        "apply",
        version=draft["version"],
        action={"seat": "p1", "type": "examine", "envelope": 1},
    )
    assert response.status_code == 422 and response.json()["rule"] == "REC-BOT"
    choice = client.get(f"/api/drafts/{draft['id']}/legal-actions/").json()
    assert choice["seat"] == "p2" and choice["actions"]
    action = choice["actions"][0]["action"]
    assert choice["actions"][0]["chance"] is False  # the server deals
    after = post(client, draft, "apply", version=draft["version"], action=action).json()
    assert after["ply"] == 3 and [m["bot"] for m in after["moves"]] == [True, False, True]
    assert after["seat"] == "p2"
    # A move the bot has answered (and whose effect the person has seen) stays made.
    refused = post(client, after, "undo", version=after["version"])
    assert refused.status_code == 422 and refused.json()["rule"] == "REC-UNDO"
    assert len(Draft.objects.get(pk=draft["id"]).actions) == 3


def test_the_search_level_plays_from_the_recorder(api, club):
    """The search bot level (ISMCTS) is a bot like the others: Mister X moves at once."""
    client = api("member")
    draft = new_draft(
        client,
        game="mister-x",
        chance=None,
        setup={},
        seats=[{"seat": "mrx", "bot": "search"}, {"seat": "det1", "player": "alice"}],
    )
    assert draft["seats"][0] == {
        "seat": "mrx",
        "player": "bot-search",
        "bot": "search",
        "bot_name": "strong bot",
    }
    assert draft["moves"] and all(m["bot"] for m in draft["moves"]) and draft["seat"] == "det1"


def test_a_game_against_a_bot_played_to_the_end_is_a_bot_match(api, club):
    client = api("member")
    game = get_game("cryptid-urban-legends")
    draft = new_draft(
        client,
        game="cryptid-urban-legends",
        chance=None,
        setup={},
        seats=[{"seat": "cryptid", "player": "alice"}, {"seat": "scientist", "bot": "random"}],
    )
    for _ in range(500):
        if draft["is_over"]:
            break
        choice = client.get(f"/api/drafts/{draft['id']}/legal-actions/").json()
        while choice["field"] is not None:  # take the first value at each step
            prefix = {**choice["prefix"], choice["field"]: choice["values"][0]["value"]}
            choice = client.get(
                f"/api/drafts/{draft['id']}/legal-actions/", {"prefix": json.dumps(prefix)}
            ).json()
        draft = post(
            client, draft, "apply", version=draft["version"], action=choice["actions"][-1]["action"]
        ).json()
    assert draft["is_over"], "the game did not end"
    done = post(client, draft, "finish", version=draft["version"]).json()
    match = Match.objects.get(pk=done["match"])
    assert match.with_bots and match.status == Match.Status.VALID
    assert match.log.document["seats"][1] == {
        "seat": "scientist",
        "player": "bot-random",
        "bot": "random",
    }
    assert game.id == match.game


def test_a_table_game_cannot_have_a_bot(api, club):
    response = api("member").post(
        "/api/drafts/",
        {
            "club": "riverside",
            "game": "cloak-and-dagger",
            "chance": "table",
            "seats": [{"seat": "p1", "bot": "random"}, {"seat": "p2", "player": "alice"}],
        },
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"] == "malformed" and response.json()["field"] == "chance"
    assert Draft.objects.count() == 0


# --- reading ------------------------------------------------------------------------------------


def test_the_server_chooses_whose_eyes_each_person_sees_a_draft_with(api, club, people):
    client = api("member")
    draft = advance(client, new_draft(client), 6)
    Player.objects.filter(club=club, handle="alice").update(user=people["other"])
    url = f"/api/drafts/{draft['id']}/"
    game = get_game("cloak-and-dagger")
    state = replay(
        {**cloak_log(), "actions": cloak_log()["actions"][:6], "result": None}
    ).final_state
    # The recorder of a whole table (no bot, outcomes entered as they came out) sees all.
    everything = client.get(url).json()
    assert everything["viewer"] == "all" and everything["document"]
    assert everything["frame"]["view"] == game.view(state, None)
    # alice's account sees alice's seat; the organiser, seated nowhere, the public view;
    # asking for another perspective changes nothing while the game runs.
    for who, eyes in (("other", "p1"), ("organiser", "public")):
        for asked in ({}, {"view": "all"}, {"view": "p2"}, {"view": "p9"}):
            seen = api(who).get(url, asked).json()
            assert seen["viewer"] == eyes and seen["document"] is None
            assert seen["frame"]["view"] == game.view(state, eyes)
            assert [v["id"] for v in seen["viewers"]] == [eyes]
    # Finished, it is a match: every perspective, as on its replay.
    done = post(client, everything, "finish", version=everything["version"]).json()
    assert api("organiser").get(url, {"view": "p2"}).json()["viewer"] == "p2"
    assert api("organiser").get(url).json()["document"] and done["status"] == "finished"
    assert api("organiser").get(url, {"view": "p9"}).status_code == 400


def test_the_frame_has_the_replay_viewer_shape(api, club):
    client = api("member")
    draft = advance(client, new_draft(client), 2)
    frame = draft["frame"]
    assert set(frame) == {"ply", "round", "phase", "seat", "action", "notation", "sentence", "view"}
    assert frame["ply"] == 2 and frame["action"] == cloak_log()["actions"][1]
    assert frame["sentence"] == draft["moves"][-1]["sentence"]
    assert draft["static"] is None
    mx = new_draft(
        client,
        game="mister-x",
        chance="server",
        setup={},
        seats=[{"seat": "mrx", "player": "alice"}, {"seat": "det1", "player": "bob"}],
    )
    with_board = client.get(f"/api/drafts/{mx['id']}/", {"static": "1"}).json()
    assert with_board["static"]["board"]["cities"]


def test_open_drafts_of_a_club_for_resuming(api, club, people):
    client = api("member")
    open_one = new_draft(client)
    closed = new_draft(client)
    post(client, closed, "abandon", version=closed["version"])
    listed = client.get("/api/drafts/", {"club": "riverside"}).json()["results"]
    assert [d["id"] for d in listed] == [open_one["id"]]
    assert listed[0]["page_url"].endswith(f"/clubs/riverside/record/{open_one['id']}/")
    abandoned = client.get("/api/drafts/", {"club": "riverside", "status": "abandoned"}).json()
    assert [d["id"] for d in abandoned["results"]] == [closed["id"]]
    assert [d.pk for d in selectors.open_drafts(club, people["other"])] == [open_one["id"]]
    assert list(selectors.open_drafts(club, people["outsider"])) == []
    assert client.get("/api/drafts/").status_code == 400


def test_the_game_catalogue(api, club):
    games = {g["id"]: g for g in api("member").get("/api/drafts/games/").json()}
    assert games["mister-x"]["seats"]["3"] == ["mrx", "det1", "det2"]
    assert games["cryptid-urban-legends"]["setup_choices"] == ["sensors_2r2w1b"]
    assert games["cloak-and-dagger"]["bots"] == ["greedy", "random", "search"]


# --- permissions ------------------------------------------------------------------------------


def test_who_may_do_what(api, club, people):
    draft = new_draft(api("member"))
    url = f"/api/drafts/{draft['id']}/"
    # Reading: members; a public club's draft is 403 to others, 401/403 anonymous.
    assert api("other").get(url).status_code == 200
    assert api("outsider").get(url).status_code == 403
    assert api(None).get(url).status_code in (401, 403)
    assert api("outsider").get("/api/drafts/", {"club": "riverside"}).status_code == 403
    # Playing: the creator only (an organiser following sees too little to play a seat).
    action = cloak_log()["actions"][0]
    for who in ("other", "outsider", "organiser"):
        assert post(api(who), draft, "apply", version=1, action=action).status_code == 403
        assert api(who).get(f"{url}legal-actions/").status_code == 403
        assert post(api(who), draft, "chance-options", action=action).status_code == 403
    assert post(api("member"), draft, "apply", version=1, action=action).status_code == 200
    assert post(api("member"), draft, "undo", version=2).status_code == 200
    # Storing or discarding: the creator and the organisers.
    assert post(api("other"), draft, "abandon", version=3).status_code == 403
    assert post(api("organiser"), draft, "abandon", version=3).status_code == 200
    # Creating: members only.
    response = api("outsider").post(
        "/api/drafts/",
        {"club": "riverside", "game": "cloak-and-dagger", "seats": draft["seats"]},
        format="json",
    )
    assert response.status_code == 403


def test_a_private_clubs_drafts_do_not_exist_for_outsiders(api, private_club, people, club):
    client = api("member")
    response = client.post(
        "/api/drafts/",
        {
            "club": "secret",
            "game": "cloak-and-dagger",
            "seats": [{"seat": "p1", "player": "alice"}, {"seat": "p2", "player": "bob"}],
        },
        format="json",
    )
    assert response.status_code == 201
    draft = response.json()
    for who in ("outsider", "organiser", None):  # olga organises riverside, not secret
        assert api(who).get(f"/api/drafts/{draft['id']}/").status_code == 404
        assert api(who).get(f"/api/drafts/{draft['id']}/legal-actions/").status_code == 404
        assert post(api(who), draft, "abandon", version=1).status_code == 404
        assert api(who).get("/api/drafts/", {"club": "secret"}).status_code == 404
    assert api("member").get(f"/api/drafts/{draft['id']}/").status_code == 200


def test_session_writes_need_the_csrf_token(club, people):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(people["member"])
    body = {
        "club": "riverside",
        "game": "cloak-and-dagger",
        "seats": [{"seat": "p1", "player": "alice"}, {"seat": "p2", "player": "bob"}],
    }
    response = browser.post("/api/drafts/", body, content_type="application/json")
    assert response.status_code == 403 and "CSRF" in response.json()["message"]
    secret = "k" * 32  # what the csrftoken cookie holds; the page echoes it in the header
    browser.cookies["csrftoken"] = secret
    response = browser.post(
        "/api/drafts/", body, content_type="application/json", HTTP_X_CSRFTOKEN=secret
    )
    assert response.status_code == 201
    assert Draft.objects.count() == 1


def test_the_recorder_is_in_the_openapi_schema(api, club):
    schema = api(None).get("/api/schema/", {"format": "json"}).json()
    paths = schema["paths"]
    for path in (
        "/api/drafts/",
        "/api/drafts/{draft_id}/",
        "/api/drafts/{draft_id}/legal-actions/",
        "/api/drafts/{draft_id}/chance-options/",
        "/api/drafts/{draft_id}/apply/",
        "/api/drafts/{draft_id}/undo/",
        "/api/drafts/{draft_id}/finish/",
        "/api/drafts/{draft_id}/abandon/",
        "/api/drafts/games/",
    ):
        assert path in paths, path
    assert "409" in paths["/api/drafts/{draft_id}/apply/"]["post"]["responses"]
    undo = paths["/api/drafts/{draft_id}/undo/"]["post"]["responses"]
    assert "nothing_to_undo" in undo["409"]["description"]


@pytest.mark.parametrize("human", ["mrx", "det1"])
def test_mister_x_against_bots_to_the_end(api, club, human):
    """A person plays one Mister X seat, greedy bots the others (the detectives' team seat
    is decided by det1's player); every position the person gets has an action for them."""
    client = api("member")
    seats = [
        {"seat": s, "player": "alice"} if s == human else {"seat": s, "bot": "greedy"}
        for s in ("mrx", "det1", "det2")
    ]
    draft = new_draft(client, game="mister-x", chance=None, setup={}, seats=seats)
    for _ in range(400):
        if draft["is_over"]:
            break
        assert draft["seat"] is not None and draft["to_act"][0] == draft["seat"]
        assert human in (draft["seat"], draft["controller"])
        choice = client.get(f"/api/drafts/{draft['id']}/legal-actions/").json()
        while choice["field"] is not None:
            prefix = {**choice["prefix"], choice["field"]: choice["values"][-1]["value"]}
            choice = client.get(
                f"/api/drafts/{draft['id']}/legal-actions/", {"prefix": json.dumps(prefix)}
            ).json()
        assert choice["actions"], choice
        response = post(
            client, draft, "apply", version=draft["version"], action=choice["actions"][0]["action"]
        )
        assert response.status_code == 200, response.json()
        draft = response.json()
    assert draft["is_over"]
    done = post(client, draft, "finish", version=draft["version"]).json()
    match = Match.objects.get(pk=done["match"])
    assert match.with_bots and match.status == Match.Status.VALID
    assert replay(match.log.document).status == "finished"


def test_moves_read_as_the_engines_sentences_for_each_viewer(api, club):
    """The move list says each action as the replay does: the engine's sentence of the
    action as these eyes saw it, with the seats' and phases' names."""
    from engine.core.game import Table
    from engine.core.messages import render

    client = api("member")
    draft = advance(client, new_draft(client), 4)
    game = get_game("cloak-and-dagger")
    table = Table({"p1": "alice", "p2": "bob"}, draft["options"])
    assert [m["sentence"] for m in draft["moves"]] == [
        render(game.describe(action, table)) for action in cloak_log()["actions"][:4]
    ]
    assert draft["moves"][0]["sentence"].startswith("alice ")
    assert draft["seat_labels"]["p1"] == render(game.seat_label("p1", table))
    assert draft["phases"][draft["moves"][0]["phase"]] == render(
        game.phase_label(draft["moves"][0]["phase"])
    )
    # A member who follows the game sees the public sentences: no envelope's contents.
    follower = api("other").get(f"/api/drafts/{draft['id']}/").json()
    assert follower["viewer"] != "all"
    hidden = [m for m in follower["moves"] if m["action"] != cloak_log()["actions"][m["ply"] - 1]]
    assert hidden, "the follower sees every action whole"
    for move in hidden:
        assert move["sentence"] == render(game.describe(move["action"], table))
        assert move["sentence"] != render(
            game.describe(cloak_log()["actions"][move["ply"] - 1], table)
        )
    # The listed choices say themselves too.
    choice = client.get(f"/api/drafts/{draft['id']}/legal-actions/").json()
    while choice["field"] is not None:
        choice = client.get(
            f"/api/drafts/{draft['id']}/legal-actions/",
            {
                "prefix": json.dumps(
                    {**choice["prefix"], choice["field"]: choice["values"][0]["value"]}
                )
            },
        ).json()
    assert all(
        entry["sentence"] == render(game.describe(entry["action"], table))
        for entry in choice["actions"]
    )
