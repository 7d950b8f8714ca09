"""Django's admin for moderation: games with their logs (read-only), board entries, players.

Staff hide a player from every board with one action on the users' list ("Hide from the
boards"); the boards, the daily boards and the profile pages honour the flag, and clearing
it ("Show on the boards") brings the entries back, since they are never deleted.
"""

import re

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import BadRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.models import Action, BoardEntry, DailySeed, Game, Player

User = get_user_model()
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
    readonly_fields = [field.name for field in Game._meta.fields]
    inlines = [ActionInline]
    list_select_related = ("owner",)

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(BoardEntry)
class BoardEntryAdmin(RowsByIdAdmin):
    list_display = ("board", "scope", "user", "first", "second", "finished_at", "game")
    list_filter = ("board",)
    search_fields = ("user__username", "scope")
    readonly_fields = [field.name for field in BoardEntry._meta.fields]
    list_select_related = ("user", "game")

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(DailySeed)
class DailySeedAdmin(RowsByIdAdmin):
    """Only the digest: a day's seed stays secret until the day is over, even to staff pages."""

    list_display = ("day", "seed_sha256")
    fields = ("day", "seed_sha256")
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False


class PlayerInline(admin.StackedInline):
    model = Player
    can_delete = False
    fields = ("hidden_from_boards",)


def _set_hidden(request, users, hidden: bool) -> int:
    for user in users:
        Player.objects.update_or_create(user=user, defaults={"hidden_from_boards": hidden})
    return len(users)


@admin.action(description=_("Hide from the boards"))
def hide_from_boards(modeladmin, request, queryset):
    count = _set_hidden(request, list(queryset), True)
    modeladmin.message_user(
        request,
        ngettext("%(count)d player hidden from the boards.", "%(count)d players hidden from the boards.", count)
        % {"count": count},
        messages.SUCCESS,
    )


@admin.action(description=_("Show on the boards"))
def show_on_boards(modeladmin, request, queryset):
    count = _set_hidden(request, list(queryset), False)
    modeladmin.message_user(
        request,
        ngettext("%(count)d player shown on the boards again.", "%(count)d players shown on the boards again.", count)
        % {"count": count},
        messages.SUCCESS,
    )


admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(RowsByIdAdmin, UserAdmin):
    """Django's own user admin, with the moderation flag and its two actions."""

    inlines = [*UserAdmin.inlines, PlayerInline]
    actions = [hide_from_boards, show_on_boards]
    list_display = (*UserAdmin.list_display, "is_active", "hidden")  # type: ignore[misc]  # django-stubs
    list_select_related = ("player",)

    @admin.display(boolean=True, description=_("Hidden from the boards"))
    def hidden(self, user) -> bool:
        player = getattr(user, "player", None)
        return bool(player and player.hidden_from_boards)
