"""Django's admin for moderation: board entries, players, and the wins held for review.

Wins played faster than a person plays (docs/RULES.md, "Human pace"), and wins that would enter
the first places of a board on evidence that does not clear them ("Review before the top"),
wait in "Wins held for review", oldest first, with the evidence: its score and signs, the pace
chart of each move, each stretch's moves beside the solver's line, the player's claimed guest
records and assisted games.  One action approves (the win enters the boards), rejects (it stays
a win, never ranked; a cleared one leaves the boards) or hides the player from every board;
each decision is logged in the admin's history with the evidence it was made on.

Staff hide a player from every board with one action on the users' list ("Hide from the
boards"); the boards, the daily boards and the profile pages honour the flag, and clearing
it ("Show on the boards") brings the entries back, since they are never deleted.
"""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import Count, F, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.admin import RowsByIdAdmin
from games.models import Analysis, Evidence, Game
from games.presenters.replay import pace_chart
from games.presenters.words import evidence_rows
from games.review import stretch_moves
from games.selectors import game_pace
from games.services import win_review
from records.models import BoardEntry, HeldWin, Player

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


def _reviewed(modeladmin, request, queryset, approve: bool) -> None:
    waiting = (
        (Game.Review.HELD, Game.Review.PENDING)
        if approve
        else (Game.Review.HELD, Game.Review.PENDING, Game.Review.CLEARED)
    )
    held = list(queryset.filter(review__in=waiting).values_list("pk", flat=True))
    for pk in held:
        game = win_review(game_id=pk, approve=approve)
        kept = Evidence.objects.filter(game_id=pk).first()
        # Logged in the admin's history (django.contrib.admin's LogEntry), with the evidence it was made on.
        modeladmin.log_change(
            request,
            game,
            (gettext("Approved") if approve else gettext("Rejected"))
            + (f" ({gettext('evidence score')} {kept.score}: {', '.join(kept.signs) or '-'})" if kept else ""),
        )
    words = (
        ngettext(
            "%(count)d win approved: it is on the boards.",
            "%(count)d wins approved: they are on the boards.",
            len(held),
        )
        if approve
        else ngettext(
            "%(count)d win rejected: it stays unranked.", "%(count)d wins rejected: they stay unranked.", len(held)
        )
    )
    modeladmin.message_user(request, words % {"count": len(held)}, messages.SUCCESS)


@admin.action(description=_("Approve: the win enters the boards"))
def approve_wins(modeladmin, request, queryset):
    _reviewed(modeladmin, request, queryset, approve=True)


@admin.action(description=_("Reject: the win stays unranked"))
def reject_wins(modeladmin, request, queryset):
    _reviewed(modeladmin, request, queryset, approve=False)


@admin.action(description=_("Hide their players from the boards"))
def hide_players(modeladmin, request, queryset):
    players = User.objects.filter(pk__in=queryset.exclude(owner=None).values("owner"))
    hide_from_boards(modeladmin, request, players)


@admin.register(HeldWin)
class HeldWinAdmin(RowsByIdAdmin):
    """The moderators' queue: every win whose pace was held, oldest first (filter by review)."""

    _shown = ["owner", "deal_number", "origin", "moves", "elapsed_ms", "finished_at", "review"]
    list_display = ["pk", *_shown, "score", "guests_claimed", "assisted_games"]
    list_filter = ("review",)
    ordering = ("finished_at", "pk")
    actions = [approve_wins, reject_wins, hide_players]
    _evidence = [
        *_shown,
        "guest_token",
        "guests_claimed",
        "assisted_games",
        "evidence_weighed",
        "pace",
        "solver_line",
        "replay",
    ]
    fields = tuple(_evidence)
    readonly_fields = _evidence
    list_select_related = ("owner",)

    def get_queryset(self, request):
        assisted = (
            Game.objects.filter(owner=OuterRef("owner"), assisted=True)
            .order_by()
            .values("owner")
            .annotate(count=Count("pk"))
            .values("count")
        )
        return (
            super()
            .get_queryset(request)
            .filter(status=Game.Status.WON)
            .exclude(review=Game.Review.NONE)
            .annotate(
                guests=Coalesce("owner__player__guests_claimed", 0),
                assisted_count=Coalesce(Subquery(assisted), 0),
                evidence_score=F("evidence__score"),
            )
        )

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description=_("Guest records claimed"), ordering="guests")
    def guests_claimed(self, game) -> int:
        return game.guests

    @admin.display(description=_("Assisted games"), ordering="assisted_count")
    def assisted_games(self, game) -> int:
        return game.assisted_count

    @admin.display(description=_("Evidence score"), ordering="evidence_score")
    def score(self, game) -> int | None:
        return game.evidence_score

    @admin.display(description=_("Evidence"))
    def evidence_weighed(self, game) -> str:
        kept = Evidence.objects.filter(game_id=game.pk).first()
        return render_to_string("records/_admin_evidence.html", {"evidence": evidence_rows(kept)})

    @admin.display(description=_("The solver's line"))
    def solver_line(self, game) -> str:
        found = Analysis.objects.filter(game_id=game.pk).values_list("stretches", flat=True).first() or []
        played = stretch_moves(game, [s["start"] for s in found], [s["end"] for s in found]) if found else []
        rows = list(zip(played, [s["line"] for s in found], strict=False))
        return render_to_string("records/_admin_solver_line.html", {"stretches": rows})

    @admin.display(description=_("Pace"))
    def pace(self, game) -> str:
        return render_to_string("games/_pace_chart.html", {"chart": pace_chart(game_pace(game))})

    @admin.display(description=_("Replay"))
    def replay(self, game) -> str:
        return render_to_string("games/_admin_replay_link.html", {"url": reverse("games:replay_start", args=[game.pk])})
