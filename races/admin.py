"""Django's admin for races: read-only, like the games they deal."""

from django.contrib import admin

from games.admin import RowsByIdAdmin
from races.models import Entry, Race


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ("name", "user", "game", "joined_at", "too_fast", "unable")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Race)
class RaceAdmin(RowsByIdAdmin):
    list_display = (
        "code",
        "mode",
        "variant",
        "state",
        "deal_number",
        "created_at",
        "started_at",
        "closes_at",
        "closed_at",
    )
    list_filter = ("mode", "variant", "state")
    search_fields = ("code",)
    # The seed stays out, as a game's does until it may be shown (games/admin.py).
    exclude = ("seed",)
    readonly_fields = [field.name for field in Race._meta.fields if field.name != "seed"]
    inlines = [EntryInline]

    def has_add_permission(self, request) -> bool:
        return False
