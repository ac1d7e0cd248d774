from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RecorderConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "recorder"
    verbose_name = _("Recorder (drafts of games being recorded)")
