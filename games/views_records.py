"""Pages about games already played: my games, boards, profiles, verification, replays."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from games import daily, engine
from games.cards import line_words, step_words, table_slots
from games.models import BoardEntry, Game, Player
from games.ownership import SiteRequest, owned_games
from games.selectors import PERIODS, board_page, chart_points, my_games_pages, on_boards, period_scope, profile_of
from games.services import ActionRefused, daily_scope, game_delete, game_verdict, game_verify, replay_states


@require_safe
def my_games_page(request: SiteRequest) -> HttpResponse:
    """The player's games in progress and finished ones, each list in pages of its own
    (``?playing=N``, ``?finished=N``)."""
    playing, finished = my_games_pages(
        request.owner, playing_page=request.GET.get("playing"), finished_page=request.GET.get("finished")
    )
    return render(request, "games/my_games.html", {"playing": playing, "finished": finished})


@require_http_methods(["GET", "POST"])
def game_delete_page(request: SiteRequest, pk: int) -> HttpResponse:
    """Ask, then delete one of this player's unfinished games."""
    game = get_object_or_404(owned_games(request.owner), pk=pk)
    if game.is_over:
        messages.warning(request, _("A finished game cannot be deleted."))
        return redirect("games:my_games")
    if request.method == "POST":
        try:
            given_up = game_delete(owner=request.owner, game_id=pk)
        except Game.DoesNotExist:
            raise Http404(_("No such game here.")) from None
        except ActionRefused:  # it finished since this page was shown
            messages.warning(request, _("A finished game cannot be deleted."))
            return redirect("games:my_games")
        if given_up:
            messages.success(
                request,
                _("The game of deal #%(number)s was given up and taken off My games.") % {"number": game.deal_number},
            )
        else:
            messages.success(request, _("The game of deal #%(number)s was deleted.") % {"number": game.deal_number})
        return redirect("games:my_games")
    return render(request, "games/game_delete.html", {"game": game})


def board_choice(request: SiteRequest) -> str:
    board = request.GET.get("board", BoardEntry.Board.TIME)
    return board if board in BoardEntry.Board.values else BoardEntry.Board.TIME


@require_safe
def leaderboard(request: SiteRequest) -> HttpResponse:
    """The global boards (wins of random deals), with today's daily board first."""
    board = board_choice(request)
    period = request.GET.get("period", "all")
    if period not in PERIODS:
        period = "all"
    now = timezone.now()
    page = board_page(board=board, scope=period_scope(period, now), page=request.GET.get("page"))
    today = daily.today(now)
    return render(
        request,
        "games/leaderboard.html",
        {
            "board": board,
            "period": period,
            "page": page,
            "boards": BoardEntry.Board.choices,
            "periods": [("all", _("All time")), ("week", _("This week (UTC)")), ("today", _("Today (UTC)"))],
            "today": today,
            "daily_top": board_page(board=board, scope=daily_scope(today), page=1),
            "show_deal_column": True,
        },
    )


@require_safe
def deal_leaderboard(request: SiteRequest, deal_number: int) -> HttpResponse:
    if not 1 <= deal_number <= engine.MAX_DEAL:
        raise Http404(_("There is no deal with that number."))
    board = board_choice(request)
    page = board_page(board=board, scope=f"deal:{deal_number}", page=request.GET.get("page"))
    return render(
        request,
        "games/leaderboard.html",
        {"board": board, "page": page, "boards": BoardEntry.Board.choices, "deal_number": deal_number},
    )


@require_safe
def profile(request: SiteRequest, username: str) -> HttpResponse:
    if "\x00" in username:  # no user name has one, and PostgreSQL refuses it in a query (a 500)
        raise Http404(_("No such player."))
    player = get_object_or_404(User, username=username, is_active=True)
    hidden = Player.objects.filter(user=player, hidden_from_boards=True).exists()
    if hidden and request.user != player and not request.user.is_staff:
        raise Http404(_("No such player."))  # staff hid them from the boards: their page goes too
    record = profile_of(player)
    entries = on_boards(BoardEntry.objects.filter(user=player, scope="all")).order_by("board")
    return render(
        request,
        "games/profile.html",
        {
            "player": player,
            "record": record,
            "chart": chart_points(record.wins),
            "hidden": hidden,
            "board_games": entries,
        },
    )


def _finished_game(request: SiteRequest, pk: int) -> tuple[Game, bool]:
    """A finished game the visitor may see, and whether it is theirs: their own, or one
    that stands on a board (docs/RULES.md, "Fairness and verification").  Games in
    progress stay their owner's."""
    game, own = owned_games(request.owner).filter(pk=pk).first(), True
    if game is None and on_boards(BoardEntry.objects.filter(game_id=pk)).exists():
        game, own = Game.objects.filter(pk=pk).first(), False
    if game is None:
        raise Http404(_("No such game here."))
    if not game.is_over:
        raise Http404(_("This game is not finished yet."))
    return game, own


@require_safe
def game_verify_page(request: SiteRequest, pk: int) -> HttpResponse:
    game, _own = _finished_game(request, pk)
    verification = game_verify(game) if game.seed_shown else None  # a daily's seed waits for its day to end
    return render(request, "games/verify.html", {"game": game, "verification": verification})


@require_safe
def game_verdict_page(request: SiteRequest, pk: int) -> HttpResponse:
    """Whether a lost game's last stretch could have been won: searched the first time it
    is asked (the end screen asks at once), kept with the game, then only read."""
    game, _own = _finished_game(request, pk)
    if game.status != engine.Status.LOST:
        raise Http404(_("Only a lost game has a verdict."))
    game = game_verdict(game)
    context = {"game": game, "verdict_steps": line_words(game.verdict_line)}
    return render(request, "games/_verdict.html" if request.htmx else "games/verdict.html", context)


@require_safe
def game_replay_page(request: SiteRequest, pk: int, step: int = 0) -> HttpResponse:
    """One step of a finished game's replay; every step has its own URL, htmx swaps just the table.

    The whole log is played again, so that a log that stops replaying is said on every
    step's page, but only the step shown is kept: the page's memory does not grow with
    the game's length.

    A daily game's steps show what the day's shuffles deal, the same for every player of
    that day: others see them from the day its seed is revealed (docs/RULES.md, "Fairness
    and verification"), its owner at once."""
    game, own = _finished_game(request, pk)
    if not (own or game.seed_shown):
        return render(request, "games/replay.html", {"game": game, "waiting": True}, status=403)
    shown, last, error = None, -1, ""
    try:
        for last, replayed in enumerate(replay_states(game)):
            if last == step:
                shown = replayed
    except (engine.IllegalAction, ValueError) as refusal:  # a tampered log: show what replays
        error = _("The log stops replaying after step %(step)s: %(error)s") % {"step": last, "error": refusal}
    if shown is None:
        raise Http404(_("This game has no such step."))
    action, state = shown.action, shown.state
    slots = table_slots(state, replay=True)
    if action is not None and action.kind in (engine.ActionKind.MOVE, engine.ActionKind.REDO, engine.ActionKind.UNDO):
        move = engine.Move.parse(action.move)
        row, col = move.src if action.kind == engine.ActionKind.UNDO else move.dst
        slots[row][col] = slots[row][col]._replace(moved=True)
    context = {
        "game": game,
        "state": state,
        "slots": slots,
        "step": step,
        "last": last,
        "action": action,
        "error": error,
        "action_words": step_words(action.kind, action.move, state.moves, state.shuffles_left) if action else "",
        "verdict_steps": line_words(game.verdict_line),
    }
    template = "games/_replay.html" if request.htmx else "games/replay.html"
    return render(request, template, context)
