from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from accounts.preferences import on_sign_in

        user_logged_in.connect(on_sign_in, dispatch_uid="accounts.preferences.on_sign_in")
