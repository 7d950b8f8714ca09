"""Pages and posts of the game: views parse and render, services change games.

Every action is a POST that works as a plain form (POST, redirect, GET) and, sent by
htmx, answers with just the table: templates/games/_table.html, the grid and the status
bar that the game page includes, or, as the game page asks (answer=changes), only the
slots and the parts of the status bar that changed (:func:`table_changes`), when the page's table was
drawn in the same language and marking (its field ``drawn``, :func:`drawn_as`).  Refusals
answer 4xx with the whole table and a note, which htmx is configured to swap in
(templates/base.html).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import reswap, trigger_client_event

from games import daily, engine
from games.cards import hint_words, line_words, said_words, table_facts, table_slots
from games.forms import ActionForm, MoveForm, NewGameForm
from games.models import Game
from games.ownership import SiteRequest, become_guest, owned_games, set_lasting_cookie
from games.selectors import my_games, personal_bests
from games.services import (
    ActionRefused,
    StaleVersion,
    TooManyGames,
    elapsed_at,
    game_act,
    game_shown,
    game_start,
    hint_for,
    pause_ms,
)

MARK_MOVABLE_COOKIE = "addiction_mark_movable"  # "0" when the player turned the marking off

# What the player reads when the rules refuse an action; other refusals cannot come
# from a click on the page, and get the general words.
REFUSALS = {
    engine.Refusal.GAME_OVER: gettext_lazy("This game is over."),
    engine.Refusal.NOTHING_FITS: gettext_lazy("No card can go into that gap."),
    engine.Refusal.CANNOT_MOVE: gettext_lazy("That card cannot move."),
    engine.Refusal.NOTHING_TO_UNDO: gettext_lazy("There is no move to undo since the last shuffle."),
    engine.Refusal.NOTHING_TO_REDO: gettext_lazy("There is no undone move to redo."),
    engine.Refusal.NO_SHUFFLE_LEFT: gettext_lazy("No shuffle is left."),
}
STALE = gettext_lazy("This page was out of date; here is the table as it is now.")


def refusal_text(reason: engine.Refusal) -> str:
    """Why an action was refused, in the player's language."""
    return str(REFUSALS[reason]) if reason in REFUSALS else _("The rules do not allow that.")


@require_safe
def home(request: SiteRequest) -> HttpResponse:
    return _home(request, NewGameForm())


def _home(request: SiteRequest, form: NewGameForm, status: int = 200, too_many: int | None = None) -> HttpResponse:
    games = my_games(request.owner)[0][:10]
    today = daily.today()
    daily_games = list(owned_games(request.owner, daily=today).order_by("created_at", "pk"))
    return render(
        request,
        "games/home.html",
        {
            "form": form,
            "games": games,
            "too_many": too_many,
            "today": today,
            "daily_number": daily.deal_number_of(today),
            "daily_game": next((game for game in daily_games if game.origin == Game.Origin.DAILY), None),
        },
        status=status,
    )


# A start refused because the player has too many games in progress (TooManyGames) answers
# 409 Conflict: the player's own games are in the way, and finishing or deleting one lets
# the same post succeed (429 would say "too many requests, wait", and waiting changes
# nothing).  htmx swaps a 409 in (base.html), so a boosted New game button shows the page
# that says so.
TOO_MANY_GAMES_STATUS = 409


@require_POST
def game_new(request: SiteRequest) -> HttpResponse:
    form = NewGameForm(request.POST)
    if not form.is_valid():
        return _home(request, form, status=400)
    try:
        game = game_start(owner=become_guest(request), deal_number=form.cleaned_data["deal_number"])
    except TooManyGames as refusal:
        return _home(request, form, status=TOO_MANY_GAMES_STATUS, too_many=refusal.limit)
    return redirect("games:detail", pk=game.pk)


def _check_deal(deal_number: int) -> None:
    if not 1 <= deal_number <= engine.MAX_DEAL:
        raise Http404(_("There is no deal with that number."))


@require_safe
def deal_page(request: SiteRequest, deal_number: int) -> HttpResponse:
    """The shareable link of a deal.  A player with a game of it in progress is taken to
    that game (the last played); anyone else sees the deal's page, whose button starts one
    (``deal_start``).  Either way it changes nothing: links are followed by crawlers and
    prefetchers too, so a GET makes no game, no guest and no session."""
    _check_deal(deal_number)
    game = my_games(request.owner)[0].filter(deal_number=deal_number).first()
    if game is not None:
        return redirect("games:detail", pk=game.pk)
    return render(request, "games/deal.html", {"deal_number": deal_number})


@require_POST
def deal_start(request: SiteRequest, deal_number: int) -> HttpResponse:
    """Start a new game of the deal (the deal page's button), even if one is in progress."""
    _check_deal(deal_number)  # before becoming a guest: a deal that does not exist makes none
    try:
        game = game_start(owner=become_guest(request), deal_number=deal_number)
    except TooManyGames as refusal:
        return render(
            request,
            "games/deal.html",
            {"deal_number": deal_number, "too_many": refusal.limit},
            status=TOO_MANY_GAMES_STATUS,
        )
    return redirect("games:detail", pk=game.pk)


def _owned_game(request: SiteRequest, pk: int) -> Game:
    try:
        return owned_games(request.owner).get(pk=pk)
    except Game.DoesNotExist:
        raise Http404(_("No such game here.")) from None


@dataclass(frozen=True)
class StatusBar:
    """What the status bar shows besides the game's own columns."""

    note: str  # why the last action was refused, or ""
    said: str  # what the action just played did, for screen readers (game.js copies it to the live region), or ""
    hint: str  # the hint for the table as it is, in words, or ""
    stuck: bool  # playing, and no card can move
    can_undo: bool
    can_redo: bool
    elapsed_ms: int  # the game's time now
    tick_ms_left: int  # how long the page's clock may tick on before the idle cap
    actions_key: str  # all that the actions (_actions.html) are drawn from: their fragment's cache key


def drawn_as(request: HttpRequest) -> str:
    """What a table's drawing depends on besides the game: the language and whether cards
    that can move are marked.  The grid form posts it back (its field ``drawn``), so that a
    page drawn otherwise, before another tab changed either, gets its whole table again
    rather than a few slots drawn differently from the rest."""
    return f"{get_language()} {'marked' if marks_movable(request) else 'plain'}"


def marks_movable(request: HttpRequest) -> bool:
    """Whether the table marks the cards that can move (on unless this browser turned it off)."""
    return request.COOKIES.get(MARK_MOVABLE_COOKIE) != "0"


def table_context(request: SiteRequest, game: Game, note: str = "") -> dict:
    """What the table's templates (_grid.html, _status.html) draw: the slots and the status bar."""
    return {
        **status_bar_context(request, game, note),
        "slots": table_slots(game.state(), hint=game.hint_now),
        "mark_movable": marks_movable(request),
        "drawn_as": drawn_as(request),
    }


def status_bar_context(request: SiteRequest, game: Game, note: str = "") -> dict:
    """What the status bar's templates (_status.html, _status_live.html) draw."""
    now = timezone.now()
    state = game.state()
    running = game.started_at is not None and not game.is_over
    idle_ms = int((now - game.last_action_at).total_seconds() * 1000) if running and game.last_action_at else 0
    cap_ms = settings.ADDICTION_IDLE_CAP_SECONDS * 1000
    stuck = not game.is_over and state.position.is_stuck()
    actions_drawn_from = (
        game.pk,
        game.deal_number,
        game.status,
        game.shuffles_left,
        game.assisted,
        game.hint_now,
        game.can_undo,
        game.can_redo,
        stuck,
        request.user.is_authenticated,
        get_language(),
    )
    return {
        "game": game,
        "bar": StatusBar(
            note=note,
            said=said_words(game.logged.kind, game.logged.move, game.shuffles_left) if game.logged else "",
            hint=hint_words(game.hint_now, state.position) if game.hint_now else "",
            stuck=stuck,
            can_undo=game.can_undo,
            can_redo=game.can_redo,
            elapsed_ms=elapsed_at(game, now),
            tick_ms_left=max(0, cap_ms - idle_ms) if running else 0,
            actions_key=" ".join(map(str, actions_drawn_from)),
        ),
        "max_actions": engine.MAX_ACTIONS,
        "verdict_steps": line_words(game.verdict_line),
        "bests": personal_bests(game) if game.status == engine.Status.WON else [],
    }


def _table(request: SiteRequest, game: Game, note: str = "", status: int = 200) -> HttpResponse:
    return render(request, "games/_table.html", table_context(request, game, note), status=status)


def table_changes(request: SiteRequest, game: Game) -> HttpResponse:
    """htmx's answer to an action the game page sent, when the game goes on: only the slots
    whose drawing changed from the table the page showed (the game as it was before the
    action, ``game.previous``, with its hint if one was shown), and the parts of the status
    bar that an action redraws (_status_live.html).  The grid and the counters stay in the
    page, with their figures sent in an event that game.js puts in place (the grid's, and the
    clock's): a move sends 2 KB of HTML rather than 15, and the browser swaps a few slots
    rather than 52.
    Once the game is over, or when the action's previous table is unknown, the whole table."""
    if game.previous is None or game.is_over:
        return _table(request, game)
    context = status_bar_context(request, game)
    before = table_facts(game.previous, hint=game.hint_at(game.version - 1))
    context["changed"] = table_facts(game.state(), hint=game.hint_now).changed_from(before)
    response = render(request, "games/_table_changes.html", context)
    figures = {
        "data-version": game.version,
        "data-status": game.status,
        "data-moves": game.moves,
        "data-shuffles-left": game.shuffles_left,
        "data-elapsed-ms": context["bar"].elapsed_ms,
        "data-hint": game.hint_now,  # "": no hint, the attribute goes
    }
    clock = {"data-elapsed-ms": context["bar"].elapsed_ms, "data-tick-ms-left": context["bar"].tick_ms_left}
    trigger_client_event(response, "table-changed", {"grid": figures, "clock": clock}, after="swap")
    return reswap(response, "none")


def _game_page(
    request: SiteRequest, game: Game, note: str = "", status: int = 200, welcome_back: bool = False
) -> HttpResponse:
    if welcome_back and not note:
        note = break_words(game, timezone.now())
    context = {**table_context(request, game, note), "idle_cap": idle_cap_words()}
    return render(request, "games/game.html", context, status=status)


@require_safe
def game_detail(request: SiteRequest, pk: int) -> HttpResponse:
    """The game page; htmx reloading the table gets the table alone.  A boosted request (a
    New game form) or htmx restoring history (the page is not in its cache) gets the page."""
    game = game_shown(_owned_game(request, pk))  # the clock starts when the board is first shown
    if request.htmx and not (request.htmx.boosted or request.htmx.history_restore_request):
        response = _table(request, game)
    else:
        response = _game_page(request, game, welcome_back=True)
    patch_vary_headers(response, ("HX-Request", "HX-Boosted", "HX-History-Restore-Request"))
    return response


class BadPost(Exception):
    """The post's fields are not what the page sends."""


def _cleaned(form: ActionForm) -> dict:
    if not form.is_valid():
        raise BadPost
    return form.cleaned_data


def answers_with_table(view):
    """Turn an action view's game, or its refusal, into the answer: htmx gets the table
    (with a note and a 4xx status when refused), a plain form post is redirected to the
    game page, with the note as a message."""

    @wraps(view)
    def answer(request: SiteRequest, pk: int) -> HttpResponse:
        try:
            game, note, status = view(request, pk), "", 200
        except Game.DoesNotExist:
            raise Http404(_("No such game here.")) from None
        except StaleVersion as stale:
            game, note, status = stale.game, str(STALE), 409
        except ActionRefused as refusal:
            game, note, status = refusal.game, refusal_text(refusal.reason), 422
        except BadPost:
            game, note, status = _owned_game(request, pk), _("That request was not understood."), 400
        if (
            request.htmx
            and status == 200
            and request.POST.get("answer") == "changes"
            and request.POST.get("drawn") == drawn_as(request)
        ):
            return table_changes(request, game)
        if request.htmx:
            return _table(request, game, note, status)
        if status == 400:
            return _game_page(request, game, note, status)
        if note:
            messages.warning(request, note)
        return redirect("games:detail", pk=game.pk)

    return answer


@require_POST
@answers_with_table
def game_move(request: SiteRequest, pk: int) -> Game:
    data = _cleaned(MoveForm(request.POST))
    return game_act(
        owner=request.owner,
        game_id=pk,
        version=data["version"],
        kind=engine.ActionKind.MOVE,
        slot=data["slot"],
        to=data["to"],
    )


@require_POST
@answers_with_table
def game_undo(request: SiteRequest, pk: int) -> Game:
    data = _cleaned(ActionForm(request.POST))
    return game_act(owner=request.owner, game_id=pk, version=data["version"], kind=engine.ActionKind.UNDO)


@require_POST
@answers_with_table
def game_redo(request: SiteRequest, pk: int) -> Game:
    data = _cleaned(ActionForm(request.POST))
    return game_act(owner=request.owner, game_id=pk, version=data["version"], kind=engine.ActionKind.REDO)


@require_POST
@answers_with_table
def game_shuffle(request: SiteRequest, pk: int) -> Game:
    data = _cleaned(ActionForm(request.POST))
    return game_act(owner=request.owner, game_id=pk, version=data["version"], kind=engine.ActionKind.SHUFFLE)


@require_POST
@answers_with_table
def game_resign(request: SiteRequest, pk: int) -> Game:
    data = _cleaned(ActionForm(request.POST))
    return game_act(owner=request.owner, game_id=pk, version=data["version"], kind=engine.ActionKind.RESIGN)


@require_POST
@answers_with_table
def game_hint(request: SiteRequest, pk: int) -> Game:
    """The solver's advice for the game as the page showed it: the table comes back with
    the card and its gap (or the Shuffle button) lit.  The game is assisted from then on."""
    data = _cleaned(ActionForm(request.POST))
    return hint_for(owner=request.owner, game_id=pk, version=data["version"])


@require_POST
def mark_movable(request: SiteRequest) -> HttpResponse:
    """Turn the marking of cards that can move on or off, for this browser (a cookie)."""
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = "/"
    # Not redirect(): it would try ``back`` as a URL name first, and "-1" is none (a 500).
    response = HttpResponseRedirect(back)
    set_lasting_cookie(response, MARK_MOVABLE_COOKIE, "1" if request.POST.get("on") == "1" else "0")
    return response


@require_safe
def rules(request: SiteRequest) -> HttpResponse:
    return render(request, "games/rules.html", {"idle_cap": idle_cap_words(), "max_actions": engine.MAX_ACTIONS})


def break_words(game: Game, now) -> str:
    """For a game resumed after a pause longer than the idle cap: how much of it was counted."""
    pause = pause_ms(game, now) // 1000
    cap = settings.ADDICTION_IDLE_CAP_SECONDS
    if pause <= cap:
        return ""
    return _(
        "Welcome back. You were away for %(away)s; %(counted)s of it counts in this game's time "
        "(a pause counts at most %(cap)s)."
    ) % {"away": pause_words(pause), "counted": pause_words(cap), "cap": idle_cap_words()}


def pause_words(seconds: int) -> str:
    """A pause said for people, in its largest unit: "3 days", "5 hours", "2 minutes", "40 seconds"."""
    for unit, words in (
        (86400, lambda n: ngettext("%(count)d day", "%(count)d days", n)),
        (3600, lambda n: ngettext("%(count)d hour", "%(count)d hours", n)),
        (60, lambda n: ngettext("%(count)d minute", "%(count)d minutes", n)),
    ):
        if seconds >= unit:
            return words(seconds // unit) % {"count": seconds // unit}
    return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}


def idle_cap_words() -> str:
    """The idle cap said for people: "2 minutes", "90 seconds"."""
    seconds = settings.ADDICTION_IDLE_CAP_SECONDS
    if seconds % 60:
        return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}
    minutes = seconds // 60
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
