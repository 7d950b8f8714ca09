"""The races' pages (docs/RULES.md, "Races"): open one, its page with the standings, join, start,
and the host's removing a player before the start.

A GET changes nothing: a race whose time is up is closed by the worker at its ``closes_at``
(races/tasks.py), or by the last of its games to end (races/receivers.py), never by a page
that happens to be looked at."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from addiction_site.limits import too_many, wait_seconds
from addiction_site.ownership import SiteRequest, become_guest
from daily import deals
from games.clock import seconds_until
from games.selectors import offered_variant
from games.services import TooManyGames
from races import stream
from races.forms import JoinForm, OpenForm
from races.models import Race
from races.selectors import race_of, snapshot, standings
from races.services import RaceRefused, entry_of, is_host, race_join, race_open, race_remove, race_start
from races.tasks import race_close_ask


@require_http_methods(["GET", "POST"])
def race_new(request: SiteRequest) -> HttpResponse:
    """The form that opens a race; its post opens it and leads to its page, the link to share."""
    # The game offered first is the one this player started last (games/preferences.py).
    form = OpenForm(request.POST or None, initial={"variant": offered_variant(request)})
    if request.method == "POST" and form.is_valid():
        if wait := wait_seconds(request, "start"):  # a race deals games: limited as starts are
            return too_many(request, wait)
        data = form.cleaned_data
        try:
            race = race_open(
                owner=become_guest(request),
                name=data["name"],
                mode=data["mode"],
                deal_number=deals.deal_number_of(deals.today()) if data["daily"] else data["deal_number"],
                length=data["length"],
                variant=data["variant"] if not data["daily"] else deals.VARIANT.key,
            )
        except TooManyGames as refusal:
            return render(request, "races/new.html", {"form": form, "too_many": refusal.limit}, status=409)
        race_close_ask(race)  # a challenge closes at its time
        return redirect("races:race", code=race.code)
    return render(request, "races/new.html", {"form": form}, status=400 if form.errors else 200)


def _race(code: str) -> Race:
    race = race_of(code)
    if race is None:
        raise Http404(_("No such race."))
    return race


def _players(request: SiteRequest, race: Race, now) -> dict:
    """What the race's page and the host's list of players draw of its players: the standings,
    the visitor's entry, and whether they are the host, who may remove a player now."""
    hosting = is_host(race, request.owner)
    return {
        "race": race,
        "standings": standings(race, now),
        "entry": entry_of(race, request.owner),
        "is_host": hosting,
        "removing": hosting and race.mode == Race.Mode.LIVE and race.state == Race.State.OPEN,
    }


def _race_page(request: SiteRequest, race: Race, *, form=None, refused: str = "", status: int = 200) -> HttpResponse:
    now = timezone.now()
    context = _players(request, race, now)
    entry = context["entry"]
    countdown = seconds_until(race.started_at, now) if race.state == Race.State.RUNNING else 0
    return render(
        request,
        "races/race.html",
        {
            **context,
            "preview": _preview(race, now),
            "countdown": countdown,
            "deal_shown": race.deal_shown_to(entry),
            "form": form or (JoinForm() if entry is None else None),
            "refused": refused,
        },
        status=status,
    )


FINISHED = ("won", "lost", "gave-up")


def _preview(race: Race, now) -> dict | None:
    """What a closed race's shared link previews (Open Graph, Twitter cards: race.html): the
    winner's table at the end of their game, as games/snapshot.py draws it, and their figures.
    None before the close, when no table is shown to anyone but its player."""
    if race.state != Race.State.CLOSED:
        return None
    first = next((row for row in standings(race, now) if row.game_id and row.state in FINISHED), None)
    return {"standing": first} if first else None


@require_safe
def race_page(request: SiteRequest, code: str) -> HttpResponse:
    return _race_page(request, _race(code))


@require_safe
def race_standings(request: SiteRequest, code: str) -> HttpResponse:
    """The standings alone (the page asks for them again while the race runs)."""
    race = _race(code)
    return render(request, "races/_standings.html", {"race": race, "standings": standings(race, timezone.now())})


@require_safe
def race_players(request: SiteRequest, code: str) -> HttpResponse:
    """The host's list of players with their Remove buttons, drawn again when the players change
    (empty for anyone else, and once the race has started)."""
    race = _race(code)
    return render(request, "races/_joiners.html", _players(request, race, timezone.now()))


@require_safe
def race_stream_once(request: SiteRequest, code: str) -> HttpResponse:
    """The live stream's address served by WSGI (gunicorn, the test client), where no stream can
    be held open: one snapshot, then the browser comes back (races/stream.py serves it live)."""
    race = _race(code)
    shown = snapshot(race, timezone.now())
    body = f"retry: {stream.RETRY_MS * 2}\n\n" + stream.events_of(code, shown, None, translation.get_language())
    return HttpResponse(body, content_type="text/event-stream", headers={"Cache-Control": "no-cache"})


@require_POST
def race_join_page(request: SiteRequest, code: str) -> HttpResponse:
    race = _race(code)
    form = JoinForm(request.POST)
    if not form.is_valid():
        return _race_page(request, race, form=form, status=400)
    if race.mode == Race.Mode.CHALLENGE and (wait := wait_seconds(request, "start")):
        return too_many(request, wait)
    try:
        race_join(race=race, owner=become_guest(request), name=form.cleaned_data["name"])
    except RaceRefused as refusal:
        return _race_page(request, race, form=form, refused=refusal.reason, status=409)
    except TooManyGames:
        return _race_page(request, race, form=form, refused="too many games", status=409)
    return redirect("races:race", code=race.code)


@require_POST
def race_start_page(request: SiteRequest, code: str) -> HttpResponse:
    race = _race(code)
    try:
        race_start(race=race, owner=request.owner)
    except RaceRefused as refusal:
        if refusal.reason == "not the host":
            raise Http404 from None
        return _race_page(request, race, refused=refusal.reason, status=409)
    race_close_ask(race)  # at most LIVE_LIMIT after its start
    return redirect("races:race", code=race.code)


@require_POST
def race_remove_page(request: SiteRequest, code: str, entry_id: int) -> HttpResponse:
    """The host takes a player out of their live race before its start.  To anyone else the
    address is not there (404), as the start's is; after the start, a refusal that says so."""
    race = _race(code)
    try:
        removed = race_remove(race=race, owner=request.owner, entry_id=entry_id)
    except RaceRefused as refusal:
        if refusal.reason in ("not the host", "not joined"):
            raise Http404 from None
        return _race_page(request, race, refused=refusal.reason, status=409)
    messages.success(request, _("%(name)s was removed from the race.") % {"name": removed})
    return redirect("races:race", code=race.code)
