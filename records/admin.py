"""Django's admin for moderation: board entries, and players.

Staff hide a player from every board with one action on the users' list ("Hide from the
boards"); the boards, the daily boards and the profile pages honour the flag, and clearing
it ("Show on the boards") brings the entries back, since they are never deleted.
"""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.admin import RowsByIdAdmin
from records.models import BoardEntry, Player

User = get_user_model()


@admin.register(BoardEntry)
class BoardEntryAdmin(RowsByIdAdmin):
    list_display = ("board", "scope", "user", "first", "second", "finished_at", "game")
    list_filter = ("board",)
    search_fields = ("user__username", "scope")
    readonly_fields = [field.name for field in BoardEntry._meta.fields]
    list_select_related = ("user", "game")

    def has_add_permission(self, request) -> bool:
        return False


class PlayerInline(admin.StackedInline):
    model = Player
    can_delete = False
    fields = ("hidden_from_boards", "guests_claimed")
    readonly_fields = ("guests_claimed",)


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
