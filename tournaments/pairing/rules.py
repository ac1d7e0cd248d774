"""How an event is paired, rule by rule, as its page tells the organiser."""

from __future__ import annotations

from engine import Message, msg
from tournaments.pairing.explanations import sentence

#: The criteria of the module docstring as an organiser reads them on the event page:
#: (kind, sentence, whether it is about roles — not shown when each pairing plays both).
#: ``{first}`` and ``{second}`` are the two roles; the ``strict`` rule only applies with
#: the strict role parity option.
SWISS_RULES: tuple[tuple[str, Message, bool], ...] = (
    (
        "absolute",
        sentence(
            "No two players meet twice (a forfeit counts as a meeting), and players "
            "kept apart by the organiser never meet."
        ),
        False,
    ),
    ("absolute", sentence("No player has a second bye while someone else has had none."), False),
    (
        "absolute",
        sentence(
            "No player's roles differ by more than two ({first} games minus {second} "
            "games), and no one plays the same role three times in a row."
        ),
        True,
    ),
    (
        "absolute",
        sentence(
            "The bye goes to the lowest score group from which everyone else can be "
            "paired by the rules above."
        ),
        False,
    ),
    (
        "strict",
        sentence(
            "Strict role parity (this event's option): no player's roles differ by "
            "more than one, wherever the rules above allow it, before any score-group "
            "rule."
        ),
        True,
    ),
    (
        "score groups",
        sentence(
            "As few players as possible float out of their score group, counted "
            "from the top group down (the leaders' group is kept whole first); "
            "then the smallest score differences between opponents."
        ),
        False,
    ),
    (
        "roles",
        sentence(
            "As many players as possible get their due role: the one that evens their "
            "count, or with even counts the one they did not play last; a player one "
            "role ahead (a strong claim) before one with even counts."
        ),
        True,
    ),
    (
        "roles",
        sentence(
            "On a board where both are due the same role: the stronger claim, then the "
            "role history (each takes the role opposite to the one they had when their "
            "roles last differed), then the higher-ranked player. In round one the "
            "higher-ranked player takes {first} on odd boards, {second} on even ones."
        ),
        True,
    ),
    (
        "rating order",
        sentence(
            "Within a score group the top half meets the bottom half in rating "
            "order; a player floating down is the lowest-ranked of their group "
            "and meets the highest-ranked of the next; the bye goes to the "
            "lowest-ranked player of its group who may have it."
        ),
        False,
    ),
)

#: The kinds of rule, as the page names them.
RULE_KINDS: dict[str, Message] = {
    "absolute": sentence("absolute"),
    "strict": sentence("strict"),
    "score groups": sentence("score groups"),
    "roles": sentence("roles"),
    "rating order": sentence("rating order"),
    "round-robin": sentence("round-robin"),
    "tables": sentence("tables"),
    "seats": sentence("seats"),
}


def pairing_rules(
    *,
    swiss: bool,
    roles: tuple[str, str],
    table_size: int = 2,
    double: bool = False,
    strict_roles: bool = False,
) -> list[tuple[Message, Message]]:
    """How this module pairs an event, as (kind, rule) for its page, in the order the
    rules are applied; ``roles`` are the two roles' names, as the page says them."""

    def rule(kind: str, text: Message, **values: object) -> tuple[Message, Message]:
        return RULE_KINDS[kind], msg(text["id"], **values)

    if not swiss:
        return [
            rule(
                "round-robin",
                sentence(
                    "Everyone meets everyone once, in the order of Berger "
                    "tables (the circle method); with an odd number of "
                    "players one sits out each round."
                ),
            ),
            rule("roles", sentence("Both roles in every pairing."))
            if double
            else rule(
                "roles",
                sentence(
                    "Berger tables alternate {first} and {second}, so every "
                    "player's roles end within one of each other."
                ),
                first=roles[0],
                second=roles[1],
            ),
        ]
    if table_size > 2:
        return [
            rule(
                "tables",
                sentence(
                    "Tables of {size} are cut from the standings in order (one "
                    "smaller at the end when the count does not divide); players "
                    "are then swapped between tables while that avoids a "
                    "forbidden pair, a repeat meeting, or a table spread over "
                    "distant score groups."
                ),
                size=table_size,
            ),
            rule(
                "seats",
                sentence(
                    "At each table, seats go to the players who have held that "
                    "role (then that seat) least, the higher-ranked player first."
                ),
            ),
        ]
    rules = [
        rule(kind, text, first=roles[0], second=roles[1])
        for kind, text, about_roles in SWISS_RULES
        if (kind != "strict" or strict_roles) and not (double and about_roles)
    ]
    if double:
        rules.append(rule("roles", sentence("Every pairing plays both roles, one game each.")))
    return rules
