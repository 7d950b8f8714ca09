"""Django's admin for the games: each with its log, read-only.  The other apps' admins
(records/admin.py, daily/admin.py) build on RowsByIdAdmin."""

import re

from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import BadRequest
from django.template.loader import render_to_string
from django.urls import reverse
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


LOG_SHOWN = 20  # the last actions a game's page shows; the whole log is the paginated list of actions


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    """Every game's log, a page of rows at a time, read-only: a game's page links to its own."""

    list_display = ("game", "number", "kind", "move", "elapsed_ms", "undo_top", "redo_top", "created_at")
    list_per_page = 100
    list_select_related = ("game",)
    ordering = ("game", "number")
    show_full_result_count = False  # no count of the whole table for each page

    def lookup_allowed(self, lookup, value, request=None) -> bool:
        return lookup == "game__exact" or super().lookup_allowed(lookup, value, request)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(RowsByIdAdmin):
    """Games are the players' record: staff read them; the log is never edited here."""

    list_display = (
        "pk",
        "owner",
        "variant",
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
    list_filter = ("variant", "status", "origin", "ranked", "assisted", "removed")
    search_fields = ("owner__username", "deal_number")
    # The seed only once it may be shown to anyone (Game.seed_shown): until then even staff
    # pages show its digest alone, so that no one can learn a game's (or a day's) shuffles.
    exclude = ("seed",)
    readonly_fields = [field.name for field in Game._meta.fields if field.name != "seed"] + ["revealed_seed", "log"]
    list_select_related = ("owner",)

    def has_add_permission(self, request) -> bool:
        return False

    @admin.display(description=_("Seed"))
    def revealed_seed(self, game: Game) -> str:
        return game.seed if game.seed_shown else str(_("Not revealed yet: the game, or its daily's day, is not over."))

    @admin.display(description=_("Log"))
    def log(self, game: Game) -> str:
        """The game's last actions, and a link to its whole log a page at a time: a long game's
        page stays small (an inline of every action made a 223-action game's page 359 KB)."""
        actions = Action.objects.filter(game=game)
        context = {
            "last": list(reversed(actions.order_by("-number")[:LOG_SHOWN])),
            "count": actions.count(),
            "all": reverse("admin:games_action_changelist") + f"?game__exact={game.pk}",
        }
        return render_to_string("admin/games/_game_log.html", context)


@admin.register(Analysis)
class AnalysisAdmin(RowsByIdAdmin):
    """Finished games' analyses (games/background.py), as the worker left them: read only.
    One stuck "running" for long belongs to a worker that died; it is taken again by itself."""

    list_display = ("game", "state", "requested_at", "claimed_at", "finished_at", "fewest_moves", "nodes")
    list_filter = ("state",)
    readonly_fields = [field.name for field in Analysis._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False
