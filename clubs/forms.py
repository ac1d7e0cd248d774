from typing import Any

from django import forms
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from clubs.models import Membership
from config import zones


def zone_field(label: str, help_text: str) -> forms.ChoiceField:
    """A searchable time zone picker (static/js/zone-picker.js); choices: ``zone_choices``."""
    return forms.ChoiceField(
        required=False,
        label=label,
        help_text=help_text,
        widget=zones.ZonePicker(),
    )


def zone_choices(*known: str) -> list[tuple[str, str]]:
    """Each reader's own zone, then the likely zones, then every place (config.zones)."""
    language = translation.get_language() or "en"
    return [("", _("Each reader's own")), *zones.choices(language, *known)]


class ClubForm(forms.Form):
    name = forms.CharField(max_length=120, label=_("Name"))
    slug = forms.SlugField(
        max_length=64,
        required=False,
        label=_("Address"),
        help_text=_("Latin letters, digits and hyphens. Left empty, it is made from the name."),
    )
    is_public = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Public"),
        help_text=_(
            "Public clubs are listed and readable by everyone; private ones only by members."
        ),
    )
    time_zone = zone_field(_("Time zone"), _("The club's events and pages show times in it."))

    def __init__(self, *args: Any, browser_zone: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = zone_choices(browser_zone)
        if zones.zone_or_none(browser_zone):
            self.fields["time_zone"].initial = browser_zone

    def clean_slug(self) -> str:
        return self.cleaned_data["slug"].lower()


class TimeZoneForm(forms.Form):
    time_zone = zone_field(_("Time zone"), _("The club's events and pages show times in it."))

    def __init__(self, *args: Any, current: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = zone_choices(current)
        self.fields["time_zone"].initial = current


class InviteForm(forms.Form):
    role = forms.ChoiceField(
        choices=Membership.Role.choices, initial=Membership.Role.MEMBER, label=_("Role")
    )
    days = forms.IntegerField(min_value=1, max_value=90, initial=7, label=_("Valid for (days)"))
    player = forms.ChoiceField(required=False, label=_("Their handle (optional)"))

    def __init__(self, *args, handles=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", _("— none yet —")), *handles]


class RenameForm(forms.Form):
    handle = forms.CharField(max_length=64, label=_("Handle"))


class MergeForm(forms.Form):
    into = forms.CharField(max_length=64, label=_("Merge into handle"))


class VoidForm(forms.Form):
    reason = forms.CharField(
        max_length=500, label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2})
    )


class JoinForm(forms.Form):
    message = forms.CharField(
        max_length=500, required=False, label=_("Message"), widget=forms.Textarea(attrs={"rows": 2})
    )
