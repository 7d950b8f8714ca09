"""Pages and posts of the game: views parse and render, services change games.

Every action is a POST that works as a plain form (POST, redirect, GET) and, sent by
htmx, answers with just the grid and the status bar.  Refusals answer 4xx with the
current table and a note, which htmx is configured to swap in (templates/base.html).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe, require_POST

from games import engine
from games.forms import NewGameForm, clean_action
from games.models import Action, Game
from games.ownership import owned_games, owner_of, set_lasting_cookie
from games.selectors import my_games
from games.services import ActionRefused, StaleVersion, elapsed_at, game_act, game_start
from games.table import Status, grid_html, status_html

MARK_MOVABLE_COOKIE = "addiction_mark_movable"  # "0" when the player turned the marking off


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return _home(request, NewGameForm())


def _home(request: HttpRequest, form: NewGameForm, status: int = 200) -> HttpResponse:
    games = my_games(owner_of(request))[0][:10]
    return render(request, "games/home.html", {"form": form, "games": games}, status=status)


@require_POST
def game_new(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST)
    if not form.is_valid():
        return _home(request, form, status=400)
    game = game_start(owner=owner_of(request, create=True), deal_number=form.cleaned_data["deal_number"])
    return redirect("games:detail", pk=game.pk)


@require_safe
def deal_start(request: HttpRequest, deal_number: int) -> HttpResponse:
    """The shareable link of a deal: resume this player's game of it, or start one."""
    if not 1 <= deal_number <= engine.MAX_DEAL:
        raise Http404(_("There is no deal with that number."))
    owner = owner_of(request, create=True)
    game = my_games(owner)[0].filter(deal_number=deal_number).first()
    if game is None:
        game = game_start(owner=owner, deal_number=deal_number)
    return redirect("games:detail", pk=game.pk)


def _owned_game(request: HttpRequest, pk: int) -> Game:
    try:
        return owned_games(owner_of(request)).get(pk=pk)
    except Game.DoesNotExist:
        raise Http404(_("No such game here.")) from None


def _board_context(request: HttpRequest, game: Game, note: str = "", *, partial: bool = False) -> dict:
    """The game page's context: the table (grid and status bar, built by games/table.py).

    A ``partial`` table is htmx's answer: the status bar is swapped in out of band, and
    the forms carry no CSRF field, since htmx sends the token in a header (base.html).
    That spares a new masked token, and the CSRF cookie sent again with it, on every click.
    """
    now = timezone.now()
    cap_ms = settings.ADDICTION_IDLE_CAP_SECONDS * 1000
    running = game.started_at is not None and not game.is_over
    idle_ms = int((now - game.last_action_at).total_seconds() * 1000) if running else 0
    token = None if partial else get_token(request)
    mark_movable = request.COOKIES.get(MARK_MOVABLE_COOKIE) != "0"
    status = Status(
        note=note,
        stuck=not game.is_over and game.state().position.is_stuck(),
        elapsed_ms=elapsed_at(game, now),
        tick_ms_left=max(0, cap_ms - idle_ms) if running else 0,
        signed_in=request.user.is_authenticated,
        oob=partial,
    )
    return {
        "game": game,
        "grid": grid_html(game, csrf_token=token, mark_movable=mark_movable),
        "status": status_html(game, status, csrf_token=token),
        "mark_movable": mark_movable,
        "idle_cap": "" if partial else idle_cap_words(),
    }


def _table(request: HttpRequest, game: Game, note: str = "", status: int = 200) -> HttpResponse:
    """htmx's answer to an action or a reload: the grid, and the status bar out of band."""
    context = _board_context(request, game, note, partial=True)
    return HttpResponse(context["grid"] + context["status"], status=status)


@require_safe
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The game page; htmx reloading the table gets the table alone.  A boosted request (a
    New game form) or htmx restoring history (the page is not in its cache) gets the page."""
    game = _owned_game(request, pk)
    if request.htmx and not (request.htmx.boosted or request.htmx.history_restore_request):
        response = _table(request, game)
    else:
        response = render(request, "games/game.html", _board_context(request, game))
    patch_vary_headers(response, ("HX-Request", "HX-Boosted", "HX-History-Restore-Request"))
    return response


def _act(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    try:
        version, slot = clean_action(request.POST, with_slot=kind == Action.Kind.MOVE)
    except ValidationError:
        game = _owned_game(request, pk)
        return _answer(request, game, _("That request was not understood."), status=400)
    try:
        game = game_act(owner=owner_of(request), game_id=pk, version=version, kind=kind, slot=slot)
    except Game.DoesNotExist:
        raise Http404(_("No such game here.")) from None
    except StaleVersion as stale:
        return _answer(request, stale.game, stale.message, status=409)
    except ActionRefused as refusal:
        return _answer(request, refusal.game, refusal.message, status=422)
    return _answer(request, game)


def _answer(request: HttpRequest, game: Game, note: str = "", status: int = 200) -> HttpResponse:
    """htmx gets the grid and status bar; a plain form post is redirected to the game page."""
    if request.htmx:
        return _table(request, game, note, status)
    if status == 400:
        return render(request, "games/game.html", _board_context(request, game, note), status=status)
    if note:
        messages.warning(request, note)
    return redirect("games:detail", pk=game.pk)


def _action_view(kind: str):
    """The POST view of one kind of action; the four differ only in ``kind``."""

    @require_POST
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        return _act(request, pk, kind)

    view.__name__ = view.__qualname__ = f"game_{kind}"
    return view


game_move = _action_view(Action.Kind.MOVE)
game_undo = _action_view(Action.Kind.UNDO)
game_shuffle = _action_view(Action.Kind.SHUFFLE)
game_resign = _action_view(Action.Kind.RESIGN)


@require_POST
def mark_movable(request: HttpRequest) -> HttpResponse:
    """Turn the marking of cards that can move on or off, for this browser (a cookie)."""
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = "/"
    # Not redirect(): it would try ``back`` as a URL name first, and "-1" is none (a 500).
    response = HttpResponseRedirect(back)
    set_lasting_cookie(response, MARK_MOVABLE_COOKIE, "1" if request.POST.get("on") == "1" else "0")
    return response


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "games/rules.html", {"idle_cap": idle_cap_words()})


def idle_cap_words() -> str:
    """The idle cap said for people: "2 minutes", "90 seconds"."""
    seconds = settings.ADDICTION_IDLE_CAP_SECONDS
    if seconds % 60:
        return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}
    minutes = seconds // 60
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
