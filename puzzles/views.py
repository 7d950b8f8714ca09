"""The puzzles' pages (docs/RULES.md, "Puzzles"): the lobby, starting the next puzzle or the day's,
and an attempt's table, played as a game's is (docs/TABLE.md: the same grid and scripts, posting
to the attempt).  Bad input gets a clean 4xx or the table with a note, never a 500."""

from __future__ import annotations

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from addiction_site.limits import TOO_MANY_REQUESTS, too_many, wait_seconds, with_retry_after
from addiction_site.ownership import SiteRequest, become_guest
from games import engine
from games.forms import ActionForm, MoveForm
from games.presenters.words import STALE, refusal_text
from games.snapshot import position_png
from puzzles import presenters, services
from puzzles.models import Attempt
from puzzles.selectors import attempt_in_progress, attempt_of, lobby_of, puzzle_of


@require_safe
def lobby(request: SiteRequest) -> HttpResponse:
    """/puzzles/: the player's rating, the day's puzzle, the one in progress, and the next.  A GET
    changes nothing: the day's puzzle is chosen by the first start of it (or the first draw)."""
    today = timezone.now().date()
    context = {**lobby_of(request.owner, today), "today": today}
    return render(request, "puzzles/lobby.html", context)


PICTURE_SECONDS = 24 * 60 * 60  # a puzzle's table never changes


@require_safe
def puzzle_picture(request: SiteRequest, pk: int) -> HttpResponse:
    """A puzzle's table, as a PNG (games/snapshot.py): the picture a shared link to the puzzles
    previews (lobby.html, with the day's puzzle).  Anyone who asks for a puzzle sees its table."""
    key = f"puzzle-picture:{pk}"
    picture = cache.get(key)
    if picture is None:
        puzzle = puzzle_of(pk)
        if puzzle is None:
            raise Http404(_("No such puzzle here."))
        picture = position_png(engine.Position.parse(puzzle.position, puzzle.variant))
        cache.set(key, picture, PICTURE_SECONDS)
    response = HttpResponse(picture, content_type="image/png")
    patch_cache_control(response, max_age=PICTURE_SECONDS, public=True)
    return response


@require_POST
def next_puzzle(request: SiteRequest) -> HttpResponse:
    """Start the next puzzle at the player's level, or go back to the one in progress."""
    if wait := wait_seconds(request, "puzzle"):
        return too_many(request, wait)
    owner = become_guest(request)
    attempt = attempt_in_progress(owner)
    if attempt is None:
        puzzle = services.puzzle_next(owner)
        if puzzle is None:
            messages.info(request, _("You have tried every puzzle here. More come as games are played."))
            return redirect("puzzles:lobby")
        attempt = services.attempt_start(owner, puzzle)
    return redirect("puzzles:attempt", pk=attempt.pk)


@require_POST
def daily_puzzle(request: SiteRequest) -> HttpResponse:
    """Start the day's puzzle (UTC), or go back to this player's attempt at it."""
    if wait := wait_seconds(request, "puzzle"):
        return too_many(request, wait)
    today = timezone.now().date()
    puzzle = services.daily_puzzle(today)
    if puzzle is None:
        messages.info(request, _("There is no puzzle yet."))
        return redirect("puzzles:lobby")
    attempt = services.attempt_start(become_guest(request), puzzle, daily=today)
    return redirect("puzzles:attempt", pk=attempt.pk)


def _owned(request: SiteRequest, pk: int) -> Attempt:
    attempt = attempt_of(request.owner, pk)
    if attempt is None:
        raise Http404(_("No such puzzle here."))
    return attempt


def _table(
    request: SiteRequest, attempt: Attempt, note: str = "", status: int = 200, moved: bool = False
) -> HttpResponse:
    context = presenters.table_context(request, attempt, note, moved=moved)
    return render(request, "puzzles/_table.html", _with_share(request, attempt, context), status=status)


def _with_share(request: SiteRequest, attempt: Attempt, context: dict) -> dict:
    if attempt.is_over:
        link = request.build_absolute_uri("/puzzles/")
        context["share"] = presenters.share_text(attempt, link)
    return context


@require_safe
def attempt_page(request: SiteRequest, pk: int) -> HttpResponse:
    """An attempt's page; htmx reloading its table (docs/TABLE.md) gets the table alone."""
    attempt = _owned(request, pk)
    if request.htmx and not (request.htmx.boosted or request.htmx.history_restore_request):
        response = _table(request, attempt)
    else:
        context = _with_share(request, attempt, presenters.table_context(request, attempt))
        response = render(request, "puzzles/attempt.html", context)
    patch_vary_headers(response, ("HX-Request", "HX-Boosted", "HX-History-Restore-Request"))
    return response


@require_POST
def attempt_action(request: SiteRequest, pk: int, kind: str) -> HttpResponse:
    """A move of the attempt as the page showed it (its ``version``), or giving it up: htmx gets
    the table (with a note and a 4xx status when refused), a plain form post the page again."""
    form = MoveForm(request.POST) if kind == "move" else ActionForm(request.POST)
    note, status, wait = "", 200, 0
    if not form.is_valid():
        attempt, note, status = _owned(request, pk), _("That request was not understood."), 400
    elif wait := wait_seconds(request, "puzzle"):
        attempt, note, status = _owned(request, pk), _("Too many requests: wait a moment."), TOO_MANY_REQUESTS
    else:
        data = form.cleaned_data
        try:
            if kind == "move":
                attempt = services.attempt_move(
                    owner=request.owner, attempt_id=pk, version=data["version"], slot=data["slot"], to=data.get("to")
                )
            else:
                attempt = services.attempt_give_up(owner=request.owner, attempt_id=pk, version=data["version"])
        except Attempt.DoesNotExist:
            raise Http404(_("No such puzzle here.")) from None
        except services.Stale as stale:
            attempt, note, status = stale.attempt, str(STALE), 409
        except services.Refused as refusal:
            attempt, note, status = refusal.attempt, refusal_text(refusal.reason), 422
    if request.htmx:
        response = _table(request, attempt, note, status, moved=kind == "move" and status == 200)
        return with_retry_after(response, wait) if status == TOO_MANY_REQUESTS else response
    if status == TOO_MANY_REQUESTS:
        return too_many(request, wait)
    if status == 400:
        context = _with_share(request, attempt, presenters.table_context(request, attempt, note))
        return render(request, "puzzles/attempt.html", context, status=status)
    if note:
        messages.warning(request, note)
    return redirect("puzzles:attempt", pk=attempt.pk)
