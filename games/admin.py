"""Django's admin for the games: each with its log, read-only.  The other apps' admins
(records/admin.py, daily/admin.py) build on RowsByIdAdmin."""

import re

from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import BadRequest
from django.utils.translation import gettext_lazy as _

from games.models import Action, Analysis, Game

ID, MAX_ID = re.compile(r"[0-9]{1,19}"), 2**63 - 1  # every table's id is a 64-bit integer


class RowsByIdAdmin(admin.ModelAdmin):
    """An admin whose actions take only row ids that can be ids: a forged post of other
    text (or a number past 64 bits) is a 400, where Django's admin let the database raise."""

    def response_action(self, request, queryset):
        for value in request.POST.getlist(ACTION_CHECKBOX_NAME):
            if not (ID.fullmatch(value) and int(value) <= MAX_ID):
                raise BadRequest("an action's selected row is not an id")
        return super().response_action(request, queryset)


class ActionInline(admin.TabularInline):
    model = Action
    fields = ("number", "kind", "move", "elapsed_ms", "undo_top", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(RowsByIdAdmin):
    """Games are the players' record: staff read them; the log is never edited here."""

    list_display = (
        "pk",
        "owner",
        "deal_number",
        "origin",
        "daily",
        "status",
        "moves",
        "elapsed_ms",
        "ranked",
        "assisted",
        "removed",
        "finished_at",
    )
    list_filter = ("status", "origin", "ranked", "assisted", "removed")
    search_fields = ("owner__username", "deal_number")
    # The seed only once it may be shown to anyone (Game.seed_shown): until then even staff
    # pages show its digest alone, so that no one can learn a game's (or a day's) shuffles.
    exclude = ("seed",)
    readonly_fields = [field.name for field in Game._meta.fields if field.name != "seed"] + ["revealed_seed"]
    inlines = [ActionInline]
    list_select_related = ("owner",)

    def has_add_permission(self, request) -> bool:
        return False

    @admin.display(description=_("Seed"))
    def revealed_seed(self, game: Game) -> str:
        return game.seed if game.seed_shown else str(_("Not revealed yet: the game, or its daily's day, is not over."))


@admin.register(Analysis)
class AnalysisAdmin(RowsByIdAdmin):
    """Finished games' analyses (games/background.py), as the worker left them: read only.
    One stuck "running" for long belongs to a worker that died; it is taken again by itself."""

    list_display = ("game", "state", "requested_at", "claimed_at", "finished_at", "fewest_moves", "nodes")
    list_filter = ("state",)
    readonly_fields = [field.name for field in Analysis._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False
