"""The daily deal's pages: today's deal, a past day's (practice), its board and the calendar.

A GET changes nothing: the day's seed is made by the day's first start (or ahead of the day by
the housekeeping, daily/apps.py), and the solver's game of a revealed day is asked for by the
first start (deferred to the reveal) and by the housekeeping, never by a page being looked at."""

from __future__ import annotations

from datetime import date, timedelta

from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from addiction_site.limits import too_many, wait_seconds
from addiction_site.ownership import SiteRequest, become_guest
from daily import deals, services
from daily.selectors import calendar_days, games_of_day, next_is_ranked, seed_made, solver_daily_of
from daily.tasks import solver_daily_ask_at_reveal
from games import engine
from games.models import daily_revealed
from games.services import TooManyGames
from games.snapshot import position_png
from records.models import BoardEntry
from records.presenters import board_page_context, page_choice
from records.scopes import Scope
from records.selectors import board_page


def _playable(day: date | None) -> date:
    day = day or deals.today()
    if not deals.is_playable(day):
        raise Http404(_("There is no daily deal for that day yet."))
    return day


PICTURE_SECONDS = 24 * 60 * 60  # a day's deal as dealt never changes


@require_safe
def daily_picture(request: SiteRequest, day: date) -> HttpResponse:
    """A day's deal as every player is dealt it, as a PNG (games/snapshot.py): the picture a
    shared daily result's link previews (daily.html).  Only the layout, which the deal's number
    already makes public; nothing of a player's game or of the day's seed."""
    day = _playable(day)
    key = f"daily-picture:{day.isoformat()}"
    picture = cache.get(key)
    if picture is None:
        picture = position_png(engine.deal(deals.deal_number_of(day), deals.VARIANT))
        cache.set(key, picture, PICTURE_SECONDS)
    response = HttpResponse(picture, content_type="image/png")
    patch_cache_control(response, max_age=PICTURE_SECONDS, public=True)
    return response


@require_safe
def daily_page(request: SiteRequest, day: date | None = None) -> HttpResponse:
    """A day's daily deal (today's without a date): its number, its seed's SHA-256 (the seed
    itself once the day is over), the player's games of it and a button to play."""
    day = _playable(day)
    return _daily_page(request, day)


def _daily_page(request: SiteRequest, day: date, status: int = 200, too_many: int | None = None) -> HttpResponse:
    games = games_of_day(request.owner, day)
    is_today = day == deals.today()
    revealed = daily_revealed(day)
    return render(
        request,
        "daily/daily.html",
        {
            "day": day,
            "is_today": is_today,
            "deal_number": deals.deal_number_of(day),
            "daily_seed": seed_made(day),
            "seed_revealed": revealed,
            "solver_daily": solver_daily_of(day) if revealed else None,
            "reveal_day": day + timedelta(days=1),
            "games": games,
            "in_progress": next((game for game in reversed(games) if not game.is_over), None),
            "next_is_ranked": next_is_ranked(request.owner, day),
            "too_many": too_many,
        },
        status=status,
    )


@require_POST
def daily_start(request: SiteRequest, day: date | None = None) -> HttpResponse:
    """Start a game of the day's daily: ranked if it is the player's first of today."""
    day = _playable(day)
    if wait := wait_seconds(request, "start"):  # each start stores a game, and perhaps a guest
        return too_many(request, wait)
    try:
        game = services.daily_start(owner=become_guest(request), day=day)
    except TooManyGames as refusal:
        return _daily_page(request, day, status=409, too_many=refusal.limit)
    solver_daily_ask_at_reveal(day)
    return redirect("games:detail", pk=game.pk)


@require_safe
def daily_board(request: SiteRequest, day: date) -> HttpResponse:
    """A day's daily board: each player's first daily game of that day, if won."""
    day = _playable(day)
    board = BoardEntry.Board.named(request.GET.get("board"))
    page = board_page(board=board, scope=Scope.daily(day), **page_choice(request.GET))
    context = board_page_context(board=board, page=page, daily_day=day, deal_number=deals.deal_number_of(day))
    return render(request, "records/leaderboard.html", context)


@require_safe
def daily_calendar(request: SiteRequest) -> HttpResponse:
    """The last six weeks of daily deals with the player's result on each; past days play as practice."""
    today = deals.today()
    return render(request, "daily/daily_calendar.html", {"days": calendar_days(request.owner, today), "today": today})
