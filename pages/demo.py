"""Demo data for `manage.py seed_demo`: clubs, players and bot-played matches. Idempotent."""

from __future__ import annotations

import logging
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.db import transaction

import engine
from clubs.models import Club, Membership, Player
from games.models import Match, Upload
from games.services import ingest_log
from tournaments import services as tournament_services
from tournaments.models import Pairing, Tournament

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class DemoClub:
    slug: str
    name: str
    is_public: bool
    handles: tuple[str, ...]


DEMO_CLUBS: tuple[DemoClub, ...] = (
    DemoClub(
        "riverside",
        "Riverside Deduction Society",
        True,
        ("alice", "bob", "carol", "dmitri", "emi", "farah"),
    ),
    DemoClub(
        "harbour-lights",
        "Harbour Lights Games Club",
        True,
        ("gus", "hana", "ivan", "jo", "kenji"),
    ),
    DemoClub("night-owls", "Night Owls (private)", False, ("lena", "mo", "nadia")),
)


@transaction.atomic
def seed_demo_clubs() -> list[Club]:
    """Create the demo clubs and their players where missing; change nothing that exists."""
    clubs = []
    for demo in DEMO_CLUBS:
        club, _ = Club.objects.get_or_create(
            slug=demo.slug, defaults={"name": demo.name, "is_public": demo.is_public}
        )
        for handle in demo.handles:
            Player.objects.get_or_create(club=club, handle=handle)
        clubs.append(club)
    return clubs


#: The demo's tables seat at most this many (its smallest public club has five players).
DEMO_MOST_PLAYERS = 5
#: Every this-many-th demo log is cut short, so the demo shows unfinished matches too.
UNFINISHED_EVERY = 25
#: Demo games are spread over this many days before DEMO_EPOCH.
DEMO_DAYS = 120
DEMO_EPOCH = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)


def demo_logs(game_id: str, count: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """``count`` bot-played logs of ``game_id`` as ``(club slug, log)``, the same every time.

    Seeds, seat counts, clubs, players and dates all come from the log's number,
    so the demo is reproducible and a second run finds every log already stored.
    """
    game = engine.get_game(game_id)
    if game is None:
        return
    options = game.normalize_options({})
    # Every player count the game has (the engine's), up to what the demo's clubs seat.
    counts = [n for n in game.player_counts(options) if n <= DEMO_MOST_PLAYERS] or [
        game.min_players
    ]
    bot = "greedy" if "greedy" in engine.bots_of(game) else sorted(engine.bots_of(game))[0]
    chooser = engine.Rng(zlib.crc32(game_id.encode()))
    for number in range(count):
        demo = DEMO_CLUBS[chooser.below(len(DEMO_CLUBS))]
        players = min(counts[number % len(counts)], len(demo.handles))
        seats = game.seat_ids(options, players)
        handles = list(demo.handles)
        chooser.shuffle(handles)
        played_at = DEMO_EPOCH - timedelta(minutes=chooser.below(DEMO_DAYS * 24 * 60))
        log = engine.play(game_id, number, [bot] * len(seats), players=handles[: len(seats)])
        if number % UNFINISHED_EVERY == UNFINISHED_EVERY - 1 and len(log["actions"]) > 4:
            log["actions"] = log["actions"][: len(log["actions"]) // 2]
            log["result"] = None
        log["meta"] = {
            "played_at": played_at.isoformat().replace("+00:00", "Z"),
            "event": "Lantern demo",
            "notes": f"bot-played ({bot})",
        }
        yield demo.slug, log


def seed_demo_matches(per_game: int) -> dict[str, int]:
    """Ingest ``per_game`` bot-played matches of every game the engine has, through
    ``ingest_log`` (the path every upload takes). Idempotent: a game whose demo
    matches are all there is skipped without playing anything. Returns new matches per game."""
    clubs = {club.slug: club for club in Club.objects.filter(slug__in=[d.slug for d in DEMO_CLUBS])}
    added: dict[str, int] = {}
    for game_id in sorted(engine.all_games()):
        present = Match.objects.filter(club__in=clubs.values(), game=game_id).count()
        added[game_id] = 0
        if present >= per_game:
            continue
        # One transaction per game: each log still gets its own savepoint, but the
        # disk is synced once rather than once per match.
        with transaction.atomic():
            for slug, log in demo_logs(game_id, per_game):
                match = ingest_log(clubs[slug], log, None, source=Upload.Source.SITE)
                added[game_id] += int(match.created)
    return added


#: the demo's analysed match of each game: a finished one of a public club, of about
#: this many actions (short enough to analyse while the demo loads)
DEMO_ANALYSED_ACTIONS = (24, 60)


def seed_demo_analyses() -> list[int]:
    """Analyse one demo match of every game the engine can analyse (in a public club, so
    any visitor sees it), unless it is analysed by the current engine already. Returns the
    matches analysed now."""
    from analysis import services as analysis_services

    analysed = []
    public = Club.objects.filter(slug__in=[d.slug for d in DEMO_CLUBS if d.is_public])
    low, high = DEMO_ANALYSED_ACTIONS
    for game_id in sorted(engine.all_games()):
        match = (
            Match.objects.filter(
                club__in=public,
                game=game_id,
                status=Match.Status.VALID,
                action_count__gte=low,
                action_count__lte=high,
            )
            .order_by("action_count", "pk")
            .first()
        )
        if match is None or analysis_services.current_version(match) is None:
            continue
        if analysis_services.analyse_at_once(match):
            analysed.append(match.pk)
    return analysed


#: so the club's bot ladder has rows: how many, and who played them (DEMO_PEOPLE's member).
DEMO_BOT_GAMES = 3
DEMO_BOT = "greedy"
DEMO_BOT_OPPONENT = "alice"


def demo_bot_game() -> str | None:
    """The game of the demo's games against a bot: the engine's first (by id) that two
    can play with a medium bot; None when it has none."""
    return next(
        (
            game_id
            for game_id, game in sorted(engine.all_games().items())
            if 2 in game.player_counts(game.normalize_options({}))
            and DEMO_BOT in engine.bots_of(game)
        ),
        None,
    )


def demo_bot_logs() -> Iterator[dict[str, Any]]:
    """The demo's games against a bot, as the recorder writes them (the bot's seat entry
    names its level), finished ones, the same every time."""
    game_id = demo_bot_game()
    if game_id is None:
        return
    found = 0
    for seed in range(100):
        if found == DEMO_BOT_GAMES:
            return
        log = engine.play(
            game_id, seed, [DEMO_BOT, DEMO_BOT], players=[DEMO_BOT_OPPONENT, f"bot-{DEMO_BOT}"]
        )
        if log["result"] is None:
            continue
        log["seats"][1]["bot"] = DEMO_BOT
        played_at = DEMO_EPOCH - timedelta(days=found + 1, hours=2)
        log["meta"] = {
            "played_at": played_at.isoformat().replace("+00:00", "Z"),
            "notes": f"against the {DEMO_BOT} bot",
        }
        found += 1
        yield log


def seed_demo_bot_games() -> int:
    """Ingest the demo's games against a bot into Riverside (rated on its bot ladder only);
    skipped once the club has a match with a bot. Returns how many were added."""
    club = Club.objects.get(slug=DEMO_CLUBS[0].slug)
    if Match.objects.filter(club=club, with_bots=True).exists():
        return 0
    with transaction.atomic():
        return sum(
            int(ingest_log(club, log, None, source=Upload.Source.SITE).created)
            for log in demo_bot_logs()
        )


# --- people and events a newcomer can step into (make run) --------------------------

#: The demo's accounts: (username, role in the demo clubs, handle linked in Riverside).
DEMO_PEOPLE = (("organiser", "organiser", "carol"), ("member", "member", "alice"))
#: Their password: printed by ``make run``; the accounts exist only with DEBUG on.
DEMO_PASSWORD = "lantern-demo"


class DemoPasswordBackend(ModelBackend):
    """Django's sign-in by password, except with DEBUG off for the demo password: accounts
    that ``make run`` made with it (or any account given it) do not sign in when the same
    database is served as production, since that password is printed for all to read.
    The refusal stops the other backends and counts as a failed sign-in (django-axes)."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if password == DEMO_PASSWORD and not settings.DEBUG:
            logger.warning(
                "a sign-in with the demo accounts' public password was refused "
                "(DEBUG is off): user name %r",
                username,
            )
            raise PermissionDenied("the demo password signs in only with DEBUG on")
        return super().authenticate(request, username=username, password=password, **kwargs)


class DemoRefused(Exception):
    """Demo accounts with a known password are for a development server only."""


@transaction.atomic
def seed_demo_people() -> list[tuple[str, str]]:
    """The demo organiser and member: organisers/members of the public demo clubs, each
    with a Riverside handle linked to the account. Returns (username, password) pairs.
    Refused unless ``settings.DEBUG`` (a known password must never reach production)."""
    if not settings.DEBUG:
        raise DemoRefused(
            "demo accounts are created only with DEBUG on (a development "
            "server): their password is public"
        )
    clubs = list(Club.objects.filter(slug__in=[d.slug for d in DEMO_CLUBS if d.is_public]))
    riverside = next(c for c in clubs if c.slug == DEMO_CLUBS[0].slug)
    users = get_user_model().objects
    for username, role, handle in DEMO_PEOPLE:
        user = users.filter(username=username).first()
        if user is None:
            user = users.create_user(
                username=username, password=DEMO_PASSWORD, email=f"{username}@lantern.invalid"
            )
        for club in clubs:
            Membership.objects.get_or_create(user=user, club=club, defaults={"role": role})
        Player.objects.filter(club=riverside, handle=handle, user__isnull=True).update(user=user)
    return [(username, DEMO_PASSWORD) for username, _, _ in DEMO_PEOPLE]


def _play_pairing(pairing: Any, seed: int) -> dict[str, Any]:
    """A bot-played log of ``pairing``'s game with its players in its seats."""
    tournament = pairing.tournament
    game = engine.get_game(tournament.game)
    seats = {s.seat: s.entry.player.handle for s in pairing.seats.select_related("entry__player")}
    options = game.normalize_options(tournament.options or {})
    order = game.seat_ids(options, len(seats))
    bot = "greedy" if "greedy" in engine.bots_of(game) else sorted(engine.bots_of(game))[0]
    log = engine.play(
        tournament.game, seed, [bot] * len(order), players=[seats[seat] for seat in order]
    )
    log["meta"] = {
        "played_at": (DEMO_EPOCH + timedelta(days=1, hours=pairing.round))
        .isoformat()
        .replace("+00:00", "Z"),
        "event": tournament.name,
    }
    return log


def _play_round(tournament: Any, seed: int) -> None:
    for pairing in tournament.pairings.filter(
        round=tournament.current_round, status=Pairing.Status.PENDING
    ):
        for attempt in range(20):  # a bot game may end unfinished; another seed will not
            log = _play_pairing(pairing, seed + 100 * attempt + pairing.board)
            if log.get("result"):
                break
        tournament_services.record_result(pairing, log, None)


def seed_demo_tournaments() -> list[str]:
    """A finished round-robin in Riverside and a Swiss event halfway through in Harbour
    Lights, played by bots through the same services as the site. Idempotent."""
    made = []
    plans = [
        # (club, name, game, format, rounds, handles, rounds to play)
        (
            DEMO_CLUBS[0],
            "Riverside autumn round-robin",
            0,
            Tournament.Format.ROUND_ROBIN,
            None,
            ("alice", "bob", "carol", "dmitri"),
            None,
        ),
        (
            DEMO_CLUBS[1],
            "Harbour Lights winter Swiss",
            1,
            Tournament.Format.SWISS,
            3,
            ("gus", "hana", "ivan", "jo", "kenji"),
            1,
        ),
    ]
    two_player = sorted(
        g
        for g, game in engine.all_games().items()
        if game.min_players == 2 and 2 in game.player_counts(game.normalize_options({}))
    )
    for demo, name, which, format, rounds, handles, play in plans:
        club = Club.objects.get(slug=demo.slug)
        if Tournament.objects.filter(club=club, name=name).exists():
            continue
        game_id = two_player[which % len(two_player)]
        tournament = tournament_services.create_tournament(
            club=club, name=name, game=game_id, format=format, rounds=rounds, table_size=2
        )
        for handle in handles:
            tournament_services.add_entry(tournament, Player.objects.get(club=club, handle=handle))
        tournament = tournament_services.start_tournament(tournament)
        seed = zlib.crc32(name.encode()) % 10_000
        while tournament.status == Tournament.Status.RUNNING and (
            play is None or tournament.current_round <= play
        ):
            number = tournament.current_round
            _play_round(tournament, seed + number)
            tournament.refresh_from_db()
            if tournament.current_round == number and tournament.status == "running":
                # The next round is paired after commit (a task); inside a transaction
                # (tests), pair it now. Pairing a paired round is a no-op.
                tournament_services.pair_round(tournament.pk, number + 1)
                tournament.refresh_from_db()
            if play is not None and number >= play:
                break
        made.append(name)
    return made
