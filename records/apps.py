from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RecordsConfig(AppConfig):
    name = "records"
    verbose_name = _("Records")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from records import receivers  # noqa: F401  (connects the receivers: a ranked win enters the boards)
