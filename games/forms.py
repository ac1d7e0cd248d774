"""Forms of the server-rendered pages (the API has its serializers)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import lazy
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from engine import FORMAT as LOG_FORMAT
from games import display
from games.selectors import MatchFilters


def _log_format_whole(text: str) -> SafeString:
    """``text`` as HTML, the log format's name in a no-wrap span: a narrow line never splits
    it at its hyphen (ru: "lantern-" / "log/1"), and the hyphen stays the one people copy
    and search for (a no-break hyphen, U+2011, would not match "lantern-log/1")."""
    return mark_safe(escape(text).replace(LOG_FORMAT, f'<span class="nowrap">{LOG_FORMAT}</span>'))


class UploadForm(forms.Form):
    log = forms.CharField(
        label=lazy(
            lambda: _log_format_whole(gettext("Paste the log (lantern-log/1 JSON)")), SafeString
        )(),
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "class": "mono"}),
        required=False,
    )
    file = forms.FileField(label=_("…or choose a file"), required=False)

    def clean(self):
        data = super().clean()
        if not data.get("log", "").strip() and not data.get("file"):
            raise ValidationError(_("Paste a log or choose a file."))
        if data.get("log", "").strip() and data.get("file"):
            raise ValidationError(_("Paste a log or choose a file, not both."))
        return data


class ImportForm(forms.Form):
    file = forms.FileField(label=_("A JSON-lines file (one log per line) or a zip of .json logs"))


class MatchFilterForm(forms.Form):
    game = forms.ChoiceField(required=False, label=_("Game"))
    player = forms.CharField(required=False, label=_("Player handle"))
    status = forms.ChoiceField(
        required=False,
        label=_("Status"),
        choices=[
            ("", pgettext_lazy("status", "any")),
            ("valid", _("finished")),
            ("unfinished", _("unfinished")),
        ],
    )
    played_from = forms.DateField(
        required=False, label=_("Played from"), widget=forms.DateInput(attrs={"type": "date"})
    )
    played_to = forms.DateField(
        required=False,
        label=pgettext_lazy("a date range", "to"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def __init__(self, *args, games: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [
            ("", pgettext_lazy("game", "any")),
            *((g, display.game_name(g)) for g in games),
        ]

    def filters(self) -> MatchFilters:
        """The filters of a valid form (an invalid one filters nothing)."""
        if not self.is_valid():
            return MatchFilters()
        return MatchFilters(**{k: v or None for k, v in self.cleaned_data.items()})
