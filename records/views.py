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
from records.presenters import board_page_context, page_choice
from records.selectors import (
    DAILY_TOP_SIZE,
    board_page,
    chart_points,
    profile_entries,
    profile_of,
    profile_player,
    rank_of,
)
from records.services import record_of


@require_safe
def leaderboard(request: SiteRequest) -> HttpResponse:
    """The global boards (wins of random deals), with today's daily board first."""
    board = BoardEntry.Board.named(request.GET.get("board"))
    variant = Variant.named(request.GET.get("variant"))
    period = request.GET.get("period", "all")
    if period not in scopes.PERIODS:
        period = "all"
    today = utc_day(timezone.now())
    page = board_page(board=board, scope=scopes.period_scope(period, today, variant), **page_choice(request.GET))
    daily_here = variant.rules.default  # the daily deal is the default variant's (docs/RULES.md, "The daily deal")
    context = board_page_context(
        board=board,
        page=page,
        variant=variant,
        period=period,
        variants=Variant.choices,
        periods=list(scopes.PERIODS.items()),
        today=today,
        daily_top=board_page(board=board, scope=scopes.Scope.daily(today), page=1, size=DAILY_TOP_SIZE)
        if daily_here
        else None,
        show_deal_column=True,
    )
    return render(request, "records/leaderboard.html", context)


@require_safe
def deal_leaderboard(request: SiteRequest, deal_number: int) -> HttpResponse:
    # The URL's converter (addiction_site/converters.py) takes only numbers of a deal.
    board = BoardEntry.Board.named(request.GET.get("board"))
    variant = Variant.named(request.GET.get("variant"))
    page = board_page(board=board, scope=scopes.Scope.deal(deal_number, variant), **page_choice(request.GET))
    context = board_page_context(board=board, page=page, variant=variant, deal_number=deal_number)
    return render(request, "records/leaderboard.html", context)


@require_safe
def profile(request: SiteRequest, username: str) -> HttpResponse:
    found = profile_player(username)
    if found is None:
        raise Http404(_("No such player."))
    player, hidden = found
    if hidden and request.user != player and not request.user.is_staff:
        raise Http404(_("No such player."))  # staff hid them from the boards: their page goes too
    variant = Variant.named(request.GET.get("variant"))
    record = profile_of(player, record_of(user_id=player.pk, variant=variant))
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
