"""How an event is paired, rule by rule, as its page tells the organiser."""

from __future__ import annotations

from collections.abc import Callable

from tournaments.pairing.explanations import gettext_noop

#: The criteria of the module docstring as an organiser reads them on the event page:
#: (kind, sentence, whether it is about roles — not shown when each pairing plays both).
#: ``{first}`` and ``{second}`` are the two roles; the ``strict`` rule only applies with
#: the strict role parity option.
SWISS_RULES: tuple[tuple[str, str, bool], ...] = (
    ("absolute", gettext_noop("No two players meet twice (a forfeit counts as a meeting), and players "
                              "kept apart by the organiser never meet."), False),
    ("absolute", gettext_noop("No player has a second bye while someone else has had none."), False),
    ("absolute", gettext_noop("No player's roles differ by more than two ({first} games minus {second} "
                              "games), and no one plays the same role three times in a row."), True),
    ("absolute", gettext_noop("The bye goes to the lowest score group from which everyone else can be "
                              "paired by the rules above."), False),
    ("strict", gettext_noop("Strict role parity (this event's option): no player's roles differ by "
                            "more than one, wherever the rules above allow it, before any score-group "
                            "rule."), True),
    ("score groups", gettext_noop("As few players as possible float out of their score group, counted "
                                  "from the top group down (the leaders' group is kept whole first); "
                                  "then the smallest score differences between opponents."), False),
    ("roles", gettext_noop("As many players as possible get their due role: the one that evens their "
                           "count, or with even counts the one they did not play last; a player one "
                           "role ahead (a strong claim) before one with even counts."), True),
    ("roles", gettext_noop("On a board where both are due the same role: the stronger claim, then the "
                           "role history (each takes the role opposite to the one they had when their "
                           "roles last differed), then the higher-ranked player. In round one the "
                           "higher-ranked player takes {first} on odd boards, {second} on even ones."), True),
    ("rating order", gettext_noop("Within a score group the top half meets the bottom half in rating "
                                  "order; a player floating down is the lowest-ranked of their group "
                                  "and meets the highest-ranked of the next; the bye goes to the "
                                  "lowest-ranked player of its group who may have it."), False),
)

#: The kinds of rule, as the page names them.
RULE_KINDS = {
    "absolute": gettext_noop("absolute"), "strict": gettext_noop("strict"),
    "score groups": gettext_noop("score groups"), "roles": gettext_noop("roles"),
    "rating order": gettext_noop("rating order"), "round-robin": gettext_noop("round-robin"),
    "tables": gettext_noop("tables"), "seats": gettext_noop("seats"),
}


def pairing_rules(*, swiss: bool, roles: tuple[str, str], table_size: int = 2,
                  double: bool = False, strict_roles: bool = False,
                  translate: Callable[[str], str] = gettext_noop) -> list[tuple[str, str]]:
    """How this module pairs an event, as (kind, sentence) for its page, in the order
    the rules are applied; ``translate`` says each in the reader's language."""
    def rule(kind: str, text: str, **values: object) -> tuple[str, str]:
        return translate(RULE_KINDS[kind]), translate(text).format(**values)

    if not swiss:
        return [rule("round-robin", gettext_noop("Everyone meets everyone once, in the order of Berger "
                                                 "tables (the circle method); with an odd number of "
                                                 "players one sits out each round.")),
                rule("roles", gettext_noop("Both roles in every pairing.")) if double else
                rule("roles", gettext_noop("Berger tables alternate {first} and {second}, so every "
                                           "player's roles end within one of each other."),
                     first=roles[0], second=roles[1])]
    if table_size > 2:
        return [rule("tables", gettext_noop("Tables of {size} are cut from the standings in order (one "
                                            "smaller at the end when the count does not divide); players "
                                            "are then swapped between tables while that avoids a "
                                            "forbidden pair, a repeat meeting, or a table spread over "
                                            "distant score groups."), size=table_size),
                rule("seats", gettext_noop("At each table, seats go to the players who have held that "
                                           "role (then that seat) least, the higher-ranked player first."))]
    rules = [rule(kind, text, first=roles[0], second=roles[1])
             for kind, text, about_roles in SWISS_RULES
             if (kind != "strict" or strict_roles) and not (double and about_roles)]
    if double:
        rules.append(rule("roles", gettext_noop("Every pairing plays both roles, one game each.")))
    return rules
