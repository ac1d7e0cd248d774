from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from config import zones


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        required=True, label=_("Email"), help_text=_("Used only to reset your password.")
    )

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
        help_text=_(
            "Dates and times on the site are shown in this zone. Type a country, a city "
            "or an offset to find yours."
        ),
        widget=zones.ZonePicker(),
    )

    def __init__(self, *args: Any, browser_zone: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        language = translation.get_language() or "en"
        default = (
            _("My browser's: %(zone)s") % {"zone": zones.label(browser_zone, language)}
            if zones.zone_or_none(browser_zone)
            else _("UTC, until my browser says where I am")
        )
        saved = self.initial.get("time_zone", "")
        self.fields["time_zone"].choices = [
            ("", default),
            *zones.choices(language, browser_zone, saved),
        ]


class LocalizedPasswordResetForm(PasswordResetForm):
    """The reset e-mail in its reader's language: the account's saved language when it
    chose one (whoever asked, and in whatever language the form was read), else the
    language the form was asked in."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict,
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        chosen = getattr(getattr(context.get("user"), "account_settings", None), "language", "")
        with translation.override(chosen or translation.get_language()):
            super().send_mail(
                subject_template_name,
                email_template_name,
                context,
                from_email,
                to_email,
                html_email_template_name,
            )
