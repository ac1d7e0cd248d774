from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Membership


class ClubForm(forms.Form):
    name = forms.CharField(max_length=120, label=_("Name"))
    slug = forms.SlugField(
        max_length=64, required=False, label=_("Address"),
        help_text=_("Latin letters, digits and hyphens. Left empty, it is made from the name."),
    )
    is_public = forms.BooleanField(
        required=False, initial=True, label=_("Public"),
        help_text=_("Public clubs are listed and readable by everyone; private ones only by members."),
    )

    def clean_slug(self) -> str:
        return self.cleaned_data["slug"].lower()


class InviteForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.MEMBER, label=_("Role"))
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
    reason = forms.CharField(max_length=500, label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))


class JoinForm(forms.Form):
    message = forms.CharField(max_length=500, required=False, label=_("Message"),
                              widget=forms.Textarea(attrs={"rows": 2}))
