from django.apps import AppConfig
from django.conf import settings
from django.core import checks
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts import panels, receivers  # noqa: F401  (receivers: logging in claims a guest's games; the next page says so)

        panels.register()

        checks.register(operator_named, checks.Tags.security, deploy=True)


def operator_named(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """``check --deploy``: the privacy page names whom players write to about their data."""
    if settings.ADDICTION_OPERATOR_EMAIL:
        return []
    return [
        checks.Warning(
            "ADDICTION_OPERATOR_EMAIL is not set: the privacy page names nobody to contact about a player's data.",
            hint="Set ADDICTION_OPERATOR_NAME and ADDICTION_OPERATOR_EMAIL (README, Deploy).",
            id="accounts.W001",
        )
    ]
