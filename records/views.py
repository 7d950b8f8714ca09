"""Pages about games already played: the boards and the players' profiles."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from addiction_site.ownership import SiteRequest
from games.clock import utc_day
from games.models import Variant
from records import scopes
from records.models import BoardEntry
from records.selectors import (
    PERIODS,
    board_page,
    chart_points,
    period_scope,
    profile_entries,
    profile_of,
    profile_player,
    rank_of,
)


@require_safe
def leaderboard(request: SiteRequest) -> HttpResponse:
    """The global boards (wins of random deals), with today's daily board first."""
    board = BoardEntry.Board.named(request.GET.get("board"))
    variant = Variant.named(request.GET.get("variant"))
    period = request.GET.get("period", "all")
    if period not in PERIODS:
        period = "all"
    now = timezone.now()
    scope = scopes.of_variant(period_scope(period, now), variant)
    page = board_page(board=board, scope=scope, page=request.GET.get("page"))
    today = utc_day(now)
    addiction = variant == Variant.ADDICTION  # the daily deal is Addiction's (docs/RULES.md, "The daily deal")
    return render(
        request,
        "records/leaderboard.html",
        {
            "board": board,
            "variant": variant,
            "variants": Variant.choices,
            "period": period,
            "page": page,
            "boards": BoardEntry.Board.choices,
            "periods": [("all", _("All time")), ("week", _("This week (UTC)")), ("today", _("Today (UTC)"))],
            "today": today,
            "daily_top": board_page(board=board, scope=scopes.daily_scope(today), page=1) if addiction else None,
            "show_deal_column": True,
        },
    )


@require_safe
def deal_leaderboard(request: SiteRequest, deal_number: int) -> HttpResponse:
    # The URL's converter (addiction_site/converters.py) takes only numbers of a deal.
    board = BoardEntry.Board.named(request.GET.get("board"))
    variant = Variant.named(request.GET.get("variant"))
    scope = scopes.of_variant(scopes.deal_scope(deal_number), variant)
    page = board_page(board=board, scope=scope, page=request.GET.get("page"))
    return render(
        request,
        "records/leaderboard.html",
        {
            "board": board,
            "page": page,
            "boards": BoardEntry.Board.choices,
            "deal_number": deal_number,
            "variant": variant,
        },
    )


@require_safe
def profile(request: SiteRequest, username: str) -> HttpResponse:
    found = profile_player(username)
    if found is None:
        raise Http404(_("No such player."))
    player, hidden = found
    if hidden and request.user != player and not request.user.is_staff:
        raise Http404(_("No such player."))  # staff hid them from the boards: their page goes too
    variant = Variant.named(request.GET.get("variant"))
    record = profile_of(player, variant)
    return render(
        request,
        "records/profile.html",
        {
            "player": player,
            "variant": variant,
            "variants": Variant.choices,
            "record": record,
            "chart": chart_points(record.wins),
            "hidden": hidden,
            "board_games": [(entry, rank_of(entry)) for entry in profile_entries(player, variant)],
        },
    )
