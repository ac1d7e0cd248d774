from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import time_zone_names


class SignUpForm(UserCreationForm):
    email = forms.EmailField(required=True, label=_("Email"),
                             help_text=_("Used only to reset your password."))

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


class PreferencesForm(forms.Form):
    """The account settings page: the site's language and the time zone of its dates."""

    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[("", _("As my browser asks"))] + list(settings.LANGUAGES),
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        required=False,
        help_text=_("Dates and times on the site are shown in this zone."),
        choices=lambda: [("", _("The site's (UTC)"))] + [(name, name) for name in time_zone_names()],
    )
