"""Pages about games already played: the boards, profiles, verification, verdicts and replays."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from addiction_site.limits import too_many, wait_seconds
from addiction_site.ownership import SiteRequest
from games.clock import utc_day
from games.models import Variant
from games.presenters import analysis_words
from games.replay import kept_replay
from games.selectors import game_analysis, game_pace
from games.tasks import analysis_ask
from records import scopes
from records.models import BoardEntry
from records.presenters import pace_chart, replay_context, verification_words
from records.selectors import (
    PERIODS,
    board_page,
    chart_points,
    finished_game,
    period_scope,
    profile_entries,
    profile_of,
    profile_player,
    rank_of,
    replay_step,
)
from records.services import game_verify


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


def _finished_game(request: SiteRequest, pk: int):
    """A finished game the visitor may see, and whether it is theirs (records.selectors.finished_game)."""
    game, own = finished_game(request.owner, pk, staff=request.user.is_staff)
    if game is None:
        raise Http404(_("No such game here."))
    if not game.is_over:
        raise Http404(_("This game is not finished yet."))
    return game, own


@require_safe
def game_verify_page(request: SiteRequest, pk: int) -> HttpResponse:
    game, _own = _finished_game(request, pk)
    verification = None
    if game.seed_shown:  # a daily's seed waits for its day to end
        kept = kept_replay(game, compute=False)  # a kept replay is read freely (addiction_site/limits.py)
        if kept is None and (wait := wait_seconds(request, "replay")):
            return too_many(request, wait)
        verification = game_verify(game, kept=kept)
    words = verification_words(game, verification) if verification else []
    return render(request, "records/verify.html", {"game": game, "verification": verification, "words": words})


VERDICT_AGAIN_SECONDS = 2  # while the analysis runs, the page asks again after this


@require_safe
def game_verdict_page(request: SiteRequest, pk: int) -> HttpResponse:
    """A finished game's analysis (docs/RULES.md, "Analysis"): searched in the background once
    the game ended (games/background.py), only read here.  A game with none yet (finished
    before analyses were made, or whose worker died) has it asked for, within the limit on
    verdicts; until it is done, htmx asks again and the page without scripts refreshes itself."""
    game, _own = _finished_game(request, pk)
    wait = 0
    analysis = game_analysis(game)
    if analysis is None:  # asking queues a task: within the limit (a page waiting for one is not)
        if not (wait := wait_seconds(request, "verdict")):
            analysis_ask(game.pk)
    elif not analysis.done:
        analysis_ask(game.pk)  # enqueued again only if the worker that took it died (games/background.py)
    if wait and not request.htmx:
        return too_many(request, wait)
    words = analysis_words(game)
    again = 0 if words.done else max(wait, VERDICT_AGAIN_SECONDS)
    context = {"game": game, "analysis": words, "verdict_again": again, "done": words.done}
    return render(request, "records/_verdict.html" if request.htmx else "records/verdict.html", context)


@require_safe
def game_replay_page(request: SiteRequest, pk: int, step: int = 0) -> HttpResponse:
    """One step of a finished game's replay; every step has its own URL, htmx swaps just the table.

    A daily game's steps show what the day's shuffles deal, the same for every player of
    that day: others see them from the day its seed is revealed (docs/RULES.md, "Fairness
    and verification"), its owner at once."""
    game, own = _finished_game(request, pk)
    if not (own or game.seed_shown):
        return render(request, "records/replay.html", {"game": game, "waiting": True}, status=403)
    kept = kept_replay(game, compute=False)
    if kept is None and (wait := wait_seconds(request, "replay")):  # a replay not kept yet costs a whole log
        return too_many(request, wait)
    replayed = replay_step(game, step, kept)
    if replayed.shown is None:
        raise Http404(_("This game has no such step."))
    template = "records/_replay.html" if request.htmx else "records/replay.html"
    context = replay_context(game, step, replayed)
    if request.user.is_staff and not request.htmx:  # the moderators' evidence (docs/RULES.md, "Human pace")
        context["pace_chart"] = pace_chart(game_pace(game))
    return render(request, template, context)
