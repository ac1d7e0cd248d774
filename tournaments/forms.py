from django import forms
from django.utils.translation import gettext_lazy as _

from games.display import game_choices
from live import clocks
from live.forms import chosen_clock, clock_choice, clock_field, offered_clocks
from tournaments.models import Tournament

#: What the clock of an event's online tables means, beside its choice.
CLOCK_HELP = _(
    "For rounds played online: each table's time control. A player whose time runs out "
    "loses; one gone too long may have the game claimed; a table nobody moves at closes."
)


def round_clock_field(current: Tournament | None = None) -> forms.ChoiceField:
    """The clock of the event's online tables, ``current``'s chosen (its own control, if
    one the form does not offer, kept as a choice of its own)."""
    field = clock_field()
    field.label = _("Clock at each online table")
    field.help_text = CLOCK_HELP
    if current is not None:
        value = clock_choice(current)
        if value not in offered_clocks():
            field.choices = [*field.choices, (value, clocks.label(current))]
        field.initial = value
    return field


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=120, label=_("Name"))
    game = forms.ChoiceField(choices=(), label=_("Game"))
    format = forms.ChoiceField(
        choices=Tournament.Format.choices,
        initial=Tournament.Format.SWISS,
        widget=forms.RadioSelect,
        label=_("Format"),
    )
    rounds = forms.IntegerField(
        min_value=1,
        max_value=30,
        required=False,
        label=_("Rounds"),
        help_text=_(
            "Swiss: how many rounds. A round-robin plays everyone once and sets it itself."
        ),
    )
    table_size = forms.IntegerField(
        min_value=2,
        max_value=6,
        required=False,
        label=_("Players per game"),
        help_text=_("Left empty: 2 for two-player games, else up to 4 at a table."),
    )
    double = forms.BooleanField(
        required=False,
        label=_("Both roles per pairing"),
        help_text=_("Two-player games: each pairing plays twice, swapping roles."),
    )
    strict_role_parity = forms.BooleanField(
        required=False,
        label=_("Strict role balance"),
        help_text=_(
            "Two-player Swiss, one game per pairing: keep every player's roles within "
            "one of each other (off: within two, as colours in a chess Swiss)."
        ),
    )
    bye_points = forms.FloatField(min_value=0, initial=1.0, label=_("Points for a bye"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = game_choices()
        self.fields["clock"] = round_clock_field()

    def round_clock(self) -> dict:
        """The chosen clock as ``tournaments.online.set_round_clock`` takes it."""
        return chosen_clock(self.cleaned_data.get("clock"))


class RoundClockForm(forms.Form):
    """The clock of the tables a round is played online at, chosen as it starts."""

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["clock"] = round_clock_field(tournament)

    def round_clock(self) -> dict:
        return chosen_clock(self.cleaned_data.get("clock"))


class EntryForm(forms.Form):
    """Enter a player: one of the club's handles, or a new handle."""

    player = forms.ChoiceField(required=False, label=_("A player of the club"))
    handle = forms.CharField(max_length=64, required=False, label=_("or a new handle"))

    def __init__(self, *args, players=(), **kwargs):
        """``players``: grouped choices (``tournaments.selectors.player_choices``)."""
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "—"), *players]

    def clean(self):
        data = super().clean()
        if not data.get("player") and not (data.get("handle") or "").strip():
            raise forms.ValidationError(_("Choose a player or type a new handle."))
        return data
