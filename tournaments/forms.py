from django import forms
from django.utils.translation import gettext_lazy as _

from games.display import game_choices
from tournaments.models import Tournament


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
