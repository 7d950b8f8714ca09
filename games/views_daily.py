"""The daily deal's pages: today's deal, a past day's (practice), its board and the calendar."""

from __future__ import annotations

from datetime import date, timedelta

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from games import daily
from games.models import BoardEntry, Game
from games.ownership import Owner, SiteRequest, become_guest, owned_games
from games.selectors import board_page
from games.services import TooManyGames, daily_scope
from games.views_records import board_choice

CALENDAR_DAYS = 42  # six weeks back


def _playable(day: date | None) -> date:
    day = day or daily.today()
    if not daily.is_playable(day):
        raise Http404(_("There is no daily deal for that day yet."))
    return day


def _games_of_day(owner: Owner, day: date) -> list[Game]:
    return list(owned_games(owner, daily=day).order_by("created_at", "pk"))


@require_safe
def daily_page(request: SiteRequest, day: date | None = None) -> HttpResponse:
    """A day's daily deal (today's without a date): its number, its seed's SHA-256 (the seed
    itself once the day is over), the player's games of it and a button to play."""
    day = _playable(day)
    return _daily_page(request, day)


def _daily_page(request: SiteRequest, day: date, status: int = 200, too_many: int | None = None) -> HttpResponse:
    games = _games_of_day(request.owner, day)
    is_today = day == daily.today()
    return render(
        request,
        "games/daily.html",
        {
            "day": day,
            "is_today": is_today,
            "deal_number": daily.deal_number_of(day),
            "daily_seed": daily.seed_of(day),
            "seed_revealed": not is_today,
            "reveal_day": day + timedelta(days=1),
            "games": games,
            "in_progress": next((game for game in reversed(games) if not game.is_over), None),
            "next_is_ranked": is_today and not any(game.origin == Game.Origin.DAILY for game in games),
            "too_many": too_many,
        },
        status=status,
    )


@require_POST
def daily_start(request: SiteRequest, day: date | None = None) -> HttpResponse:
    """Start a game of the day's daily: ranked if it is the player's first of today."""
    day = _playable(day)
    try:
        game = daily.daily_start(owner=become_guest(request), day=day)
    except TooManyGames as refusal:
        return _daily_page(request, day, status=409, too_many=refusal.limit)
    return redirect("games:detail", pk=game.pk)


@require_safe
def daily_board(request: SiteRequest, day: date) -> HttpResponse:
    """A day's daily board: each player's first daily game of that day, if won."""
    day = _playable(day)
    board = board_choice(request)
    page = board_page(board=board, scope=daily_scope(day), page=request.GET.get("page"))
    return render(
        request,
        "games/leaderboard.html",
        {
            "board": board,
            "page": page,
            "boards": BoardEntry.Board.choices,
            "daily_day": day,
            "deal_number": daily.deal_number_of(day),
        },
    )


@require_safe
def daily_calendar(request: SiteRequest) -> HttpResponse:
    """The last six weeks of daily deals with the player's result on each; past days play as practice."""
    today = daily.today()
    first = max(daily.FIRST_DAY, today - timedelta(days=CALENDAR_DAYS - 1))
    results: dict[date | None, str] = {}  # every day is a date: the query asks for a range of them
    for day, status, origin in (
        owned_games(request.owner, daily__gte=first, daily__lte=today)
        .order_by("created_at", "pk")
        .values_list("daily", "status", "origin")
    ):
        if origin == Game.Origin.DAILY or day not in results:
            results[day] = status
    days = []
    day = today
    while day >= first:
        days.append({"day": day, "deal_number": daily.deal_number_of(day), "result": results.get(day, "")})
        day -= timedelta(days=1)
    return render(request, "games/daily_calendar.html", {"days": days, "today": today})
