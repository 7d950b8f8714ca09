"""Django's admin for the daily deal's seeds: their digests only."""

from django.contrib import admin

from daily.models import DailySeed
from games.admin import RowsByIdAdmin


@admin.register(DailySeed)
class DailySeedAdmin(RowsByIdAdmin):
    """Only the digest: a day's seed stays secret until the day is over, even to staff pages."""

    list_display = ("day", "seed_sha256")
    fields = ("day", "seed_sha256")
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False
