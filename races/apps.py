from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RacesConfig(AppConfig):
    name = "races"
    verbose_name = _("Races")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from races import receivers  # noqa: F401  (connects the receiver: the last game over closes a live race)
