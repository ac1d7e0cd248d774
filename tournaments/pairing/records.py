"""What pairing knows of an event: its entrants, the games and byes of past rounds, and
the tables a round is made of."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from engine import Message
from tournaments.pairing.explanations import english

PlayerId = int | str
Seating = tuple[tuple[str, PlayerId], ...]  # (seat, player) in seat order


class PairingError(Exception):
    """No pairing satisfies the hard constraints (forbidden pairings, table sizes)."""


@dataclass(frozen=True)
class Entrant:
    id: PlayerId
    name: str
    rating: float = 0.0


@dataclass(frozen=True)
class PlayedGame:
    """One game of a past round: who sat where and the points each player took."""

    round: int
    seats: Seating
    points: dict[PlayerId, float]
    #: a game scored without being played: counts as a meeting for pairing,
    #: and as nothing for the opponent-based tie-breaks
    forfeit: bool = False

    @property
    def players(self) -> list[PlayerId]:
        return [player for _seat, player in self.seats]


@dataclass(frozen=True)
class Bye:
    round: int
    player: PlayerId
    points: float


@dataclass(frozen=True)
class Table:
    """One pairing of a round: a board of two, a table of N, or a bye."""

    board: int
    players: tuple[PlayerId, ...]
    #: the games to play: one seating, or two (roles swapped) with ``double``;
    #: empty for a bye
    games: tuple[Seating, ...]
    #: why the table was made, as what to say (a message, :mod:`.explanations`): each
    #: reader is told it in their language (``tournaments.explanations``)
    why: Message

    @property
    def is_bye(self) -> bool:
        return not self.games

    @property
    def explanation(self) -> str:
        """Why, in English, as this module writes it (each claim of it is checked by the
        tests; the site keeps it beside ``why`` for search)."""
        return english(self.why)


@dataclass
class History:
    """What the pairing of the next round needs to know about the past ones."""

    games: list[PlayedGame] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)

    def points(self) -> dict[PlayerId, float]:
        total: dict[PlayerId, float] = defaultdict(float)
        for game in self.games:
            for player, pts in game.points.items():
                total[player] += pts
        for bye in self.byes:
            total[bye.player] += bye.points
        return total

    def meetings(self) -> dict[frozenset[PlayerId], int]:
        """Rounds in which each pair of players met (a double pairing counts once)."""
        rounds: dict[frozenset[PlayerId], set[int]] = defaultdict(set)
        for game in self.games:
            players = game.players
            for i, a in enumerate(players):
                for b in players[i + 1 :]:
                    if a != b:
                        rounds[frozenset((a, b))].add(game.round)
        return {pair: len(rs) for pair, rs in rounds.items()}

    def seat_counts(self, role_class: Callable[[str], str]) -> dict[PlayerId, Counter[str]]:
        counts: dict[PlayerId, Counter[str]] = defaultdict(Counter)
        for game in self.games:
            if game.forfeit:
                continue
            for seat, player in game.seats:
                counts[player][role_class(seat)] += 1
        return counts

    def role_sequences(
        self, role_class: Callable[[str], str]
    ) -> dict[PlayerId, list[tuple[int, str]]]:
        """Per player, the role (class) of each round played over the board, in round
        order; ``""`` for a round in which they played both roles (double)."""
        by_round: dict[PlayerId, dict[int, str]] = defaultdict(dict)
        for game in self.games:
            if game.forfeit:
                continue
            for seat, player in game.seats:
                role = role_class(seat)
                seen = by_round[player].get(game.round)
                by_round[player][game.round] = role if seen in (None, role) else ""
        return {player: sorted(rounds.items()) for player, rounds in by_round.items()}

    def bye_count(self) -> Counter[PlayerId]:
        return Counter(bye.player for bye in self.byes)


def identity(seat: str) -> str:
    """Every seat its own role (the default ``role_class``)."""
    return seat
