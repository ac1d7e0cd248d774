"""The bodies and answers of ``/api/tables/…`` (live.api): what a client sends to open a
table, take a seat, move, ask a takeback, and what it is answered, as the schema shows."""

from __future__ import annotations

from rest_framework import serializers

from config.api.requests import BodyObjectSerializer
from live import clocks, guests, services
from live.models import Table, TableEvent
from recorder.api import ChoiceSerializer

# --- bodies ---------------------------------------------------------------------------------


class SeatRequestSerializer(BodyObjectSerializer):
    seat = serializers.CharField(help_text="The engine's seat id, in the game's seat order.")
    take = serializers.ChoiceField(
        [services.ME, services.FREE, services.BOT],
        help_text="me: you sit here; free: a member takes it; bot: a bot plays it.",
    )
    bot = serializers.ChoiceField(
        ["random", "greedy", "search"],
        required=False,
        allow_null=True,
        help_text="The bot's level, with take = bot.",
    )


class TimeControlSerializer(BodyObjectSerializer):
    kind = serializers.ChoiceField(
        Table.Clock.values,
        help_text="none: untimed; realtime: minutes for the game plus seconds per move; "
        "correspondence: days for each move.",
    )
    minutes = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=clocks.MINUTES[0],
        max_value=clocks.MINUTES[1],
        help_text="realtime: each seat's minutes for the whole game.",
    )
    increment = serializers.IntegerField(
        required=False,
        min_value=clocks.INCREMENT[0],
        max_value=clocks.INCREMENT[1],
        help_text="realtime: seconds added to a seat's clock after each of its moves.",
    )
    days = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=clocks.DAYS[0],
        max_value=clocks.DAYS[1],
        help_text="correspondence: days a seat has for each move.",
    )
    on_time_out = serializers.ChoiceField(
        Table.OnTimeOut.values,
        required=False,
        help_text="lose: a seat whose time runs out loses for its side (LIVE-1.1); bot: a "
        "bot takes the seat over and the game goes on (LIVE-1.5).",
    )


class OpenTableSerializer(serializers.Serializer):
    club = serializers.SlugField(help_text="The club's slug.")
    game = serializers.CharField(help_text="Engine game id, e.g. cryptid-urban-legends.")
    options = serializers.JSONField(
        required=False, help_text="Game options; absent keys take defaults."
    )
    seats = SeatRequestSerializer(many=True, min_length=1, max_length=6)
    clock = TimeControlSerializer(
        required=False, allow_null=True, help_text="The time control (default: none)."
    )


class TakeSeatSerializer(serializers.Serializer):
    seat = serializers.CharField(
        required=False, allow_null=True, help_text="A free seat (default: the first free one)."
    )


class ActSerializer(serializers.Serializer):
    seen = serializers.IntegerField(
        help_text="The last event number you have: a move made against "
        "an older one is refused (409 stale), so catch up first."
    )
    action = serializers.JSONField(help_text="One action of your seat, as legal-actions lists it.")


class SeatLinkRequestSerializer(serializers.Serializer):
    seat = serializers.CharField(help_text="A free seat of the table.")


class SeatLinkSerializer(serializers.Serializer):
    seat = serializers.CharField()
    token = serializers.CharField(help_text="Shown once: only its hash is stored.")
    url = serializers.URLField(help_text="The page that seats whoever opens it first.")


class TakeByLinkSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="A seat link's token.")
    name = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=guests.NAME_LENGTH,
        help_text="Who is not a member of the club plays as this guest name (default: "
        "your user name).",
    )


class TakebackAskSerializer(serializers.Serializer):
    seen = serializers.IntegerField(
        required=False, default=0, help_text="The last event number you have (the answer's news)."
    )


class TakebackAnswerSerializer(TakebackAskSerializer):
    agree = serializers.BooleanField(
        help_text="true: take the move back (the last seat to agree does it); false: decline "
        "(the seat that asked: withdraw)."
    )


class LiveChoiceSerializer(ChoiceSerializer):
    """The recorder's field-by-field choice, for a table's seat."""

    draft = None
    version = None
    seen = serializers.IntegerField(help_text="The table's newest event when this was answered.")


class SeatRowSerializer(serializers.Serializer):
    seat = serializers.CharField()
    label = serializers.CharField(
        help_text="The seat as players call it, in the reader's language."
    )
    player = serializers.CharField(
        allow_blank=True, help_text="Who plays it (a bot by its level); empty while free."
    )
    bot = serializers.CharField(allow_null=True)
    free = serializers.BooleanField()


class TableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.URLField()
    page_url = serializers.CharField(help_text="The table's page (also its invitation link).")
    socket_path = serializers.CharField(
        help_text="The websocket of the table's news: add ?since=<n>."
    )
    club = serializers.CharField()
    game = serializers.CharField()
    status = serializers.ChoiceField(Table.Status.choices)
    options = serializers.JSONField()
    seats = SeatRowSerializer(many=True)
    your_seat = serializers.CharField(allow_null=True, help_text="The seat you hold, if any.")
    last_event = serializers.IntegerField(help_text="The number of the table's newest event.")
    created_by = serializers.CharField()
    created_at = serializers.DateTimeField()
    match = serializers.IntegerField(
        allow_null=True, help_text="The match its finished game became."
    )
    match_url = serializers.CharField(allow_null=True)
    clock = serializers.JSONField(
        help_text="The time control: {kind, minutes, increment, days, on_time_out, grace_s}."
    )
    ending = serializers.CharField(
        allow_blank=True, help_text="How it ended off the board: time, claim, idle (or empty)."
    )


class EventSerializer(serializers.Serializer):
    n = serializers.IntegerField()
    kind = serializers.ChoiceField(TableEvent.Kind.values)
    seat = serializers.CharField(required=False)
    player = serializers.CharField(required=False, help_text="seated: who sat down.")
    move = serializers.JSONField(
        required=False,
        help_text="move: the move as your eyes saw it "
        "(ply, round, phase, seat, action, notation, sentence, bot); absent when undone.",
    )
    undone = serializers.BooleanField(
        required=False, help_text="move: taken back since (a taken-back event follows)."
    )
    ply = serializers.IntegerField(
        required=False, help_text="taken-back: the first ply taken back (drop it and those after)."
    )


class TakebackSerializer(serializers.Serializer):
    by = serializers.CharField(help_text="The seat asking to take back its last move.")
    agreed = serializers.ListField(child=serializers.CharField())
    waiting = serializers.ListField(
        child=serializers.CharField(), help_text="The seats yet to answer."
    )


class PositionSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    to_act = serializers.ListField(child=serializers.CharField())
    your_turn = serializers.BooleanField()
    is_over = serializers.BooleanField()
    frame = serializers.JSONField(help_text="As a replay frame: the engine's view for your eyes.")
    phases = serializers.DictField(child=serializers.CharField())
    seat_labels = serializers.DictField(child=serializers.CharField())
    card_words = serializers.DictField(child=serializers.CharField())
    result_sentence = serializers.CharField(allow_null=True)


class ClockSerializer(serializers.Serializer):
    left_ms = serializers.IntegerField(help_text="What is left, as of this answer.")
    running = serializers.BooleanField(help_text="It is this seat's turn: its clock runs.")


class EndingSerializer(serializers.Serializer):
    reason = serializers.ChoiceField(["time", "claim", "idle"])
    seat = serializers.CharField(allow_blank=True)


class NewsSerializer(serializers.Serializer):
    n = serializers.IntegerField(help_text="The newest event number: send it as since next time.")
    status = serializers.ChoiceField(Table.Status.choices)
    eyes = serializers.CharField(
        help_text="Whose eyes this is drawn with: your seat, public, or all (everything: a "
        "seat once the game ended, a watcher once the club's delay after the end passed)."
    )
    seats = SeatRowSerializer(many=True)
    takeback = TakebackSerializer(allow_null=True, help_text="The take-back asked for, if any.")
    sees_all_later = serializers.BooleanField(
        required=False,
        help_text="A watcher of a finished game: everything shows after the club's delay "
        "(ask again from since=0 when eyes becomes all).",
    )
    events = EventSerializer(many=True, help_text="Every event after since, in order.")
    position = PositionSerializer(
        allow_null=True, help_text="Where the game stands (null before it starts)."
    )
    control = serializers.JSONField(
        help_text="The time control: {kind, minutes, increment, days, on_time_out, grace_s}."
    )
    clocks = serializers.DictField(
        child=ClockSerializer(),
        allow_null=True,
        help_text="Per person's seat of a timed table (null untimed): count down locally from "
        "left_ms while running; the server's figures are the truth.",
    )
    presence = serializers.DictField(
        child=serializers.ChoiceField(["here", "away", "gone"]),
        help_text="Per person's seat while played: gone = away longer than the grace period.",
    )
    ending = EndingSerializer(allow_null=True, help_text="How it ended off the board (LIVE-1).")
    claimable = serializers.ListField(
        child=serializers.CharField(),
        help_text="The seats your seat may claim the game from now (POST claim).",
    )
