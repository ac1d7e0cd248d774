"""Round-robin: the circle method, in Berger-table order."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.explanations import role_name, sentence
from tournaments.pairing.records import Entrant, PairingError, Seating, Table


def round_robin(
    entrants: Sequence[Entrant],
    roles: tuple[str, str],
    *,
    double: bool = False,
) -> list[list[Table]]:
    """Every round of a round-robin, by the circle method, in Berger-table order.

    With an odd count a phantom joins the circle; whoever meets it has the bye.
    The rounds of the circle method are played in the order ``0, n/2, 2·n/2, …``
    (mod n−1), as Berger tables do, so that players alternate between the two
    rows of the circle and therefore between the two roles; the fixed player
    alternates by round. Each player's roles end within one of each other.
    """
    if len(entrants) < 2:
        raise PairingError("a round-robin needs at least two players")
    circle: list[Entrant | None] = list(entrants)
    if len(circle) % 2:
        circle.append(None)
    n = len(circle)
    fixed, others = circle[-1], circle[:-1]
    schedule: list[list[Table]] = []
    for round_index in range(n - 1):
        shift = (round_index * (n // 2)) % (n - 1)
        ring = others[shift:] + others[:shift]
        # (first, second): first takes roles[0]. The fixed player alternates.
        pairs = [(ring[0], fixed) if round_index % 2 == 0 else (fixed, ring[0])]
        pairs += [(ring[k], ring[n - 1 - k]) for k in range(1, n // 2)]
        tables: list[Table] = []
        bye_tables: list[Table] = []
        for first, second in pairs:
            if first is None or second is None:
                player = second if first is None else first
                assert player is not None
                bye_tables.append(
                    Table(
                        0,
                        (player.id,),
                        (),
                        sentence(
                            "bye: {player} sits out round {round} of the circle (odd "
                            "number of players)",
                            player=player.name,
                            round=round_index + 1,
                        ),
                    )
                )
                continue
            games: tuple[Seating, ...] = (((roles[0], first.id), (roles[1], second.id)),)
            if double:
                games += (((roles[0], second.id), (roles[1], first.id)),)
                why = sentence(
                    "round-robin (circle method, Berger order): {first} meets "
                    "{second} in round {round}; both roles are played",
                    first=first.name,
                    second=second.name,
                    round=round_index + 1,
                )
            else:
                why = sentence(
                    "round-robin (circle method, Berger order): {first} meets "
                    "{second} in round {round}; {first} takes {first_role}, "
                    "{second} takes {second_role} (Berger tables alternate roles)",
                    first=first.name,
                    second=second.name,
                    round=round_index + 1,
                    first_role=role_name(roles[0]),
                    second_role=role_name(roles[1]),
                )
            tables.append(Table(0, (first.id, second.id), games, why))
        numbered = [
            Table(i + 1, t.players, t.games, t.why) for i, t in enumerate(tables + bye_tables)
        ]
        schedule.append(numbered)
    return schedule
