"""How a game and a match are named on pages: always in the engine's words (its game
names, seat labels and result sentences), never as ids or Python values."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from config.sentences import engine_locale, say
from engine import Table, all_games, get_game, join_list


def game_name(game_id: str) -> str:
    """The game's name in the reader's language ("Mister X", ミスターX, «Мистер Икс»); a game
    the engine no longer has keeps its id."""
    game = get_game(game_id) if game_id else None
    return say(game.title()) if game is not None else game_id


def card_words(game_id: str, options: dict[str, Any] | None = None) -> dict[str, str]:
    """Each card or ticket of the game by its log id, as the reader's language calls it
    (``Game.card_words``): Split, Разделение; car (double move)."""
    game = get_game(game_id) if game_id else None
    if game is None:
        return {}
    return {
        card: say(words)
        for card, words in game.card_words(game.normalize_options(options or {})).items()
    }


def game_names() -> list[str]:
    """Every game the engine has, by name, alphabetically."""
    return sorted(game_name(game_id) for game_id in all_games())


def words(items: list[str]) -> str:
    """``a, b and c`` as the reader's language joins a list (the engine's list words)."""
    return join_list([str(item) for item in items], engine_locale())


def game_choices() -> list[tuple[str, str]]:
    """(id, name) of every game, for a form's choices."""
    return sorted(((game_id, game_name(game_id)) for game_id in all_games()), key=lambda c: c[1])


def _table(game: Any, players: dict[str, str], options: dict[str, Any] | None) -> Table:
    try:
        normalized = game.normalize_options(options or {})
    except Exception:  # a stored log's options the engine no longer accepts: defaults
        normalized = game.normalize_options({})
    return Table(players, normalized)


def seat_role(
    game_id: str, seat: str, players: dict[str, str], options: dict[str, Any] | None = None
) -> str:
    """What ``seat`` is called at the table ("Mister X", "Scientist")."""
    game = get_game(game_id)
    if game is None:
        return seat
    try:
        return say(game.seat_label(seat, _table(game, players, options)))
    except Exception:  # an old log's seat the sentences do not know: its id
        return seat


def result_sentence(
    game_id: str,
    status: str,
    result: dict[str, Any] | None,
    players: dict[str, str],
    options: dict[str, Any] | None = None,
) -> str:
    """The result as one sentence, or what became of a match that has none."""
    if status == "rejected":
        return _("Rejected: the log breaks a rule.")
    if status == "unfinished":
        return _("Unfinished: the log stops before the game ends.")
    game = get_game(game_id)
    if game is None or not result:
        return _("Finished.")
    try:
        return say(game.describe_result(result, _table(game, players, options)))
    except Exception:  # a result the engine's sentences no longer read
        return _("Finished.")


def rating_role(game_id: str, role: str) -> str:
    """A ladder's role as the game names it at the table, in the reader's language
    ("Mister X", "The detectives", "科学者"); the rating's own label where the table has no
    name for it."""
    game = get_game(game_id)
    if game is None or game.rating is None:
        return role
    # A ladder keeps a role by the rating's label ("Mister X" for the seat mrx): the seat
    # it labels is what the table names.
    seat = next((s for s, label in game.rating.labels.items() if label == role), role)
    try:
        said = say(game.seat_label(seat, _table(game, {}, None)))
    except Exception:  # a role the sentences do not know: the rating's label
        said = seat
    return said if said != seat else game.rating.label(seat)
