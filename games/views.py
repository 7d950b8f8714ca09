"""Pages and posts of the game: views parse and render, services change games.

Every action is a POST that works as a plain form (POST, redirect, GET) and, sent by
htmx, answers with just the table: games/templates/games/_table.html, the grid and the status
bar that the game page includes, or, as the game page asks (answer=changes), only the
slots and the parts of the status bar that changed (:func:`table_changes`), when the page's
table was drawn in the same language and marking (its field ``drawn``,
``preferences.drawn_as``).  Refusals answer 4xx with the whole table and a note, which htmx
is configured to swap in (templates/base.html).  What the server and the page's scripts say to each
other in those answers is written in docs/TABLE.md.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import reswap, trigger_client_event

from addiction_site.limits import TOO_MANY_REQUESTS, too_many, wait_seconds, with_retry_after
from addiction_site.ownership import SiteRequest, become_guest, set_lasting_cookie
from games import engine, pace
from games.clock import seconds_until
from games.drawn import draw, drawn_deal
from games.drawn import keep as keep_drawn
from games.forms import ActionForm, DealStartForm, DrawnStartForm, MoveForm, NewGameForm, SettingsForm
from games.models import Game
from games.preferences import VARIANT_COOKIE, chosen, drawn_as, remember
from games.presenters.analysis import analysis_words
from games.presenters.pictures import rules_pictures, variant_pictures
from games.presenters.replay import pace_chart, replay_context, verification_words
from games.presenters.table import drawn_context, grid_figures, status_bar_context, table_context, table_facts
from games.presenters.words import (
    STALE,
    break_words,
    hint_wait_words,
    idle_cap_words,
    refusal_text,
    variant_choices,
    variant_intro,
    verdict_wait_words,
)
from games.replay import kept_replay
from games.selectors import (
    finished_game,
    game_analysis,
    game_in_progress_of_deal,
    game_of,
    game_pace,
    game_to_resume,
    my_games,
    my_games_pages,
    offered_variant,
    replay_step,
    undo_move,
)
from games.services import (
    ActionRefused,
    NotStarted,
    OffTable,
    Played,
    StaleVersion,
    TooManyGames,
    game_act,
    game_delete,
    game_start,
    game_verify,
    hint_for,
    leaves_a_record,
)
from games.snapshot import position_png
from games.tasks import analysis_ask


@require_safe
def home(request: SiteRequest) -> HttpResponse:
    """The home page is a table (docs/RULES.md, "The home page"): the game in progress played
    last, or, with none (or a variant asked for by its tab), the deal drawn for this browser,
    whose first click starts it (``drawn_start``).  Either way nothing is stored: a GET makes no
    game and no guest."""
    now = timezone.now()
    resume = None if request.GET.get("variant") else game_to_resume(request.owner, now)
    response = _home(request, NewGameForm(), offered_variant(request), resume=resume, now=now)
    patch_vary_headers(response, ["Cookie"])
    return response


def _home(
    request: SiteRequest,
    form: NewGameForm,
    variant: str,
    status: int = 200,
    too_many: int | None = None,
    resume: Game | None = None,
    now: datetime | None = None,
) -> HttpResponse:
    # Today's daily deal has its part of the page from the daily app (daily/templatetags).
    now = now or timezone.now()
    context = {
        "form": form,
        "games": my_games(request.owner)[0][:10],
        "too_many": too_many,
        "variant": Game.Variant(variant),
        "variants": variant_choices(),
        "intro": variant_intro(Game.Variant(variant).rules),
    }
    fresh = None
    if resume is not None:
        context.update(table_context(request, resume, break_words(resume, now)), idle_cap=idle_cap_words())
    else:
        kept = drawn_deal(request, variant)
        shown = kept or draw()
        fresh = None if kept else shown
        first_visit = request.owner.user_id is None and not request.owner.guest_token
        context.update(drawn_context(request, variant, shown, first_visit=first_visit))
    response = render(request, "games/home.html", context, status=status)
    if fresh is not None:  # drawn now: every page shows this deal until its game starts
        keep_drawn(response, request, variant, fresh)
        patch_cache_control(response, private=True)
    return response


def _remember_variant(response: HttpResponse, variant: str) -> HttpResponse:
    """Keep the variant of a game just started as this browser's default (the home page's)."""
    set_lasting_cookie(response, VARIANT_COOKIE, variant)
    return response


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
        return _home(request, form, Game.Variant.named(request.POST.get("variant")), status=400)
    if wait := wait_seconds(request, "start"):  # each start stores a game, and perhaps a guest
        return too_many(request, wait)
    variant = form.cleaned_data["variant"]
    try:
        game = game_start(owner=become_guest(request), deal_number=form.cleaned_data["deal_number"], variant=variant)
    except TooManyGames as refusal:
        return _home(request, form, variant, status=TOO_MANY_GAMES_STATUS, too_many=refusal.limit)
    return _remember_variant(redirect("games:detail", pk=game.pk), variant)


@require_POST
def drawn_start(request: SiteRequest) -> HttpResponse:
    """A click on the home page's table: the game of the deal drawn for this browser starts (a
    deal shown before its start: its own deal's board only, docs/RULES.md, "The home page"),
    and the click is played in it as on any table (refused, the game page says why).  Without
    the deal in its cookie (cleared since), nothing starts: the home page shows a new one."""
    form = DrawnStartForm(request.POST)
    if not form.is_valid():
        return _home(request, NewGameForm(), Game.Variant.named(request.POST.get("variant")), status=400)
    variant, slot = form.cleaned_data["variant"], form.cleaned_data["slot"]
    number = drawn_deal(request, variant)
    if number is None:
        messages.warning(request, _("That deal is no longer kept in this browser: here is a new one."))
        return redirect(f"{reverse('games:home')}?variant={variant}")
    if wait := wait_seconds(request, "start"):
        return too_many(request, wait)
    owner = become_guest(request)
    try:
        game = game_start(owner=owner, deal_number=number, origin=Game.Origin.CHOSEN, variant=variant)
    except TooManyGames as refusal:
        return _home(request, NewGameForm(), variant, status=TOO_MANY_GAMES_STATUS, too_many=refusal.limit)
    if slot is not None:
        try:
            game_act(owner=owner, game_id=game.pk, version=0, kind=engine.ActionKind.MOVE, slot=slot)
        except (ActionRefused, OffTable) as refusal:
            words = refusal_text(refusal.reason) if isinstance(refusal, ActionRefused) else ""
            messages.warning(request, words or _("That request was not understood."))
    response = _remember_variant(redirect("games:detail", pk=game.pk), variant)
    keep_drawn(response, request, variant, None)  # its game started: the next one is drawn afresh
    return response


@require_safe
def deal_page(request: SiteRequest, deal_number: int) -> HttpResponse:
    """The shareable link of a deal (the URL's converter takes only numbers of a deal).  A
    player with a game of it in progress is taken to that game (the last played); anyone else
    sees the deal's page, whose button starts one (``deal_start``).  Either way it changes
    nothing: links are followed by crawlers and prefetchers too, so a GET makes no game, no
    guest and no session."""
    variant = Game.Variant.named(request.GET.get("variant"))
    game = game_in_progress_of_deal(request.owner, deal_number, variant)
    if game is not None:
        return redirect("games:detail", pk=game.pk)
    return _deal_page(request, deal_number, variant)


def _deal_page(
    request: SiteRequest, deal_number: int, variant: str, status: int = 200, too_many: int | None = None
) -> HttpResponse:
    deal = {"deal_number": deal_number, "variant": variant}  # what the other apps' panels get (games/registry.py)
    context = {"deal_number": deal_number, "variant": variant, "deal": deal, "too_many": too_many}
    return render(request, "games/deal.html", context, status=status)


@require_POST
def deal_start(request: SiteRequest, deal_number: int) -> HttpResponse:
    """Start a new game of the deal of the variant posted (the deal page's button), even if
    one is in progress."""
    form = DealStartForm(request.POST)
    if not form.is_valid():
        return _deal_page(request, deal_number, Game.Variant.named(None), status=400)
    variant = Game.Variant(form.cleaned_data["variant"])
    if wait := wait_seconds(request, "start"):
        return too_many(request, wait)
    try:
        game = game_start(owner=become_guest(request), deal_number=deal_number, variant=variant)
    except TooManyGames as refusal:
        return _deal_page(request, deal_number, variant, status=TOO_MANY_GAMES_STATUS, too_many=refusal.limit)
    return _remember_variant(redirect("games:detail", pk=game.pk), variant)


def _owned_game(request: SiteRequest, pk: int) -> Game:
    game = game_of(request.owner, pk)
    if game is None:
        raise Http404(_("No such game here."))
    return game


def _table(request: SiteRequest, game: Game, note: str = "", status: int = 200, played: Played | None = None):
    logged = played.logged if played else None
    return render(request, "games/_table.html", table_context(request, game, note, logged), status=status)


def table_changes(request: SiteRequest, played: Played) -> HttpResponse:
    """htmx's answer to an action the game page sent, when the game goes on: only the slots
    whose drawing changed from the table the page showed (the game as it was before the
    action, ``played.before``, with its hint if one was shown), and the parts of the status
    bar that an action redraws (_status_live.html).  The grid and the counters stay in the
    page, with their figures sent in an event that figures.js puts in place (the grid's, and the
    clock's; docs/TABLE.md): a move sends 2 KB of HTML rather than 15, and the browser swaps a
    few slots rather than 52.
    Once the game is over, or for a hint (which moves nothing), the whole table."""
    game = played.game
    if played.before is None or game.is_over:
        return _table(request, game, played=played)
    context = status_bar_context(request, game, logged=played.logged)
    before = table_facts(played.before, hint=game.hint_at(game.version - 1))
    context["changed"] = table_facts(game.state(), hint=game.hint_now).changed_from(before)
    context["actions_shown"] = request.POST.get("actions_shown", "")  # the page's actions, left out if the same
    response = render(request, "games/_table_changes.html", context)
    bar = context["bar"]
    # The grid's figures without their attributes' "data-", and the clock's tick (its time is the grid's).
    shown = grid_figures(game, bar.elapsed_ms, undo_move(game, played.logged))
    grid = {name.removeprefix("data-"): value for name, value in shown.items()}
    trigger_client_event(
        response, "table-changed", {"grid": grid, "tick-ms-left": bar.tick_ms_left}, after="swap", encoder=CompactJSON
    )
    # A few slots htmx swaps into the game page, whose own headers hold for them: the page's
    # policy governs what the slots may load, and a fragment is never framed on its own.
    response._csp_exempt = True  # type: ignore[attr-defined]  # django-csp's own mark (csp.decorators.csp_exempt)
    response.xframe_options_exempt = True
    return reswap(response, "none")


class CompactJSON(DjangoJSONEncoder):
    """JSON without the spaces after commas and colons, for the figures an answer's header carries."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **{**kwargs, "separators": (",", ":")})


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
    game = _owned_game(request, pk)
    now = timezone.now()
    if game.starts_later(now):
        response = _countdown(request, game, now)
    elif request.htmx and not (request.htmx.boosted or request.htmx.history_restore_request):
        response = _table(request, game)
    else:
        response = _game_page(request, game, welcome_back=True)
    patch_vary_headers(response, ("HX-Request", "HX-Boosted", "HX-History-Restore-Request"))
    return response


def _countdown(request: SiteRequest, game: Game, now, status: int = 200) -> HttpResponse:
    """A game whose clock starts later (Game.starts_later): its table stays hidden until then."""
    seconds = seconds_until(game.started_at, now)
    response = render(request, "games/countdown.html", {"game": game, "seconds": seconds}, status=status)
    if request.htmx:
        response["HX-Refresh"] = "true"  # the whole page, not a table, comes back
    return response


@require_POST
def game_action(request: SiteRequest, pk: int, kind: str) -> HttpResponse:
    """One action on the game as the page showed it (its ``version``): ``kind`` is a move,
    undo, redo, shuffle, resign (games/converters.py) or a hint, the solver's advice, which
    lights the card and its gap (or the Shuffle button) and makes the game assisted.

    htmx gets the table (with a note and a 4xx status when refused), a plain form post is
    redirected to the game page, with the note as a message."""
    form = MoveForm(request.POST) if kind == engine.ActionKind.MOVE else ActionForm(request.POST)
    played, note, status, wait = None, "", 200, 0
    if not form.is_valid():
        game, note, status = _owned_game(request, pk), _("That request was not understood."), 400
    elif kind == "hint" and (wait := wait_seconds(request, "hint")):  # each new hint is a search
        game, note, status = _owned_game(request, pk), hint_wait_words(wait), TOO_MANY_REQUESTS
    else:
        data = form.cleaned_data
        try:
            if kind == "hint":
                played = hint_for(owner=request.owner, game_id=pk, version=data["version"])
            else:
                played = game_act(
                    owner=request.owner,
                    game_id=pk,
                    version=data["version"],
                    kind=engine.ActionKind(kind),
                    slot=data.get("slot"),
                    to=data.get("to"),
                )
            game = played.game
        except Game.DoesNotExist:
            raise Http404(_("No such game here.")) from None
        except NotStarted as waiting:
            if not request.htmx:
                return redirect("games:detail", pk=waiting.game.pk)
            return _countdown(request, waiting.game, timezone.now(), status=409)
        except OffTable as off:
            game, note, status = off.game, _("That request was not understood."), 400
        except StaleVersion as stale:
            game, note, status = stale.game, str(STALE), 409
        except ActionRefused as refusal:
            game, note, status = refusal.game, refusal_text(refusal.reason), 422
    if (
        played
        and request.htmx
        and request.POST.get("answer") == "changes"
        and request.POST.get("drawn") == drawn_as(request)
    ):
        return table_changes(request, played)
    if request.htmx:
        response = _table(request, game, note, status, played)
        return with_retry_after(response, wait) if status == TOO_MANY_REQUESTS else response
    if status == TOO_MANY_REQUESTS:
        return too_many(request, wait)
    if status == 400:
        return _game_page(request, game, note, status)
    if note:
        messages.warning(request, note)
    return redirect("games:detail", pk=game.pk)


# --------------------------------------------------------------------------- a finished game's pages


def _finished_game(request: SiteRequest, pk: int):
    """A finished game the visitor may see, and whether it is theirs (games.selectors.finished_game)."""
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
    return render(request, "games/verify.html", {"game": game, "verification": verification, "words": words})


VERDICT_AGAIN_SECONDS = 2  # while the analysis runs, the page asks again after this


@require_http_methods(["GET", "HEAD", "POST"])
def game_verdict_page(request: SiteRequest, pk: int) -> HttpResponse:
    """A finished game's analysis (docs/RULES.md, "Analysis"): searched in the background once
    the game ended (games/background.py), only read by a GET; until it is done, htmx asks again
    and the page without scripts refreshes itself.  A game with none (finished before analyses
    were made) shows a button whose POST asks for it, within the limit on verdicts; one whose
    worker died is asked for again by the housekeeping (games/apps.py)."""
    game, _own = _finished_game(request, pk)
    wait = 0
    if request.method == "POST" and game_analysis(game) is None:  # asking queues a task: limited
        wait = wait_seconds(request, "verdict")
        if wait and not request.htmx:
            return too_many(request, wait)
        if not wait:
            analysis_ask(game.pk)
            if not request.htmx:
                return redirect("games:verdict", pk=game.pk)
    words = analysis_words(game)
    again = 0 if words.done or not words.asked else VERDICT_AGAIN_SECONDS
    context = {"game": game, "analysis": words, "verdict_again": again, "done": words.done}
    template = "games/_verdict.html" if request.htmx else "games/verdict.html"
    if wait:
        context["note"] = verdict_wait_words(wait)
        return with_retry_after(render(request, template, context, status=TOO_MANY_REQUESTS), wait)
    return render(request, template, context)


@require_safe
def game_replay_page(request: SiteRequest, pk: int, step: int = 0) -> HttpResponse:
    """One step of a finished game's replay; every step has its own URL, htmx swaps just the table.

    A daily game's steps show what the day's shuffles deal, the same for every player of
    that day: others see them from the day its seed is revealed (docs/RULES.md, "Fairness
    and verification"), its owner at once."""
    game, own = _finished_game(request, pk)
    if not (own or game.seed_shown):
        return render(request, "games/replay.html", {"game": game, "waiting": True}, status=403)
    kept = kept_replay(game, compute=False)
    if kept is None and (wait := wait_seconds(request, "replay")):  # a replay not kept yet costs a whole log
        return too_many(request, wait)
    replayed = replay_step(game, step, kept)
    if replayed.shown is None:
        raise Http404(_("This game has no such step."))
    template = "games/_replay.html" if request.htmx else "games/replay.html"
    context = replay_context(game, step, replayed)
    if request.user.is_staff and not request.htmx:  # the moderators' evidence (docs/RULES.md, "Human pace")
        context["pace_chart"] = pace_chart(game_pace(game))
    return render(request, template, context)


SNAPSHOT_SECONDS = 24 * 60 * 60  # a step's picture never changes: kept a day in the shared cache


@require_safe
def game_picture(request: SiteRequest, pk: int, step: int) -> HttpResponse:
    """A finished game's table at a step of its replay, as a PNG (games/snapshot.py): the picture
    the previews of a shared replay show (Open Graph, Twitter cards; replay.html).  Seen by whoever
    may see the replay, drawn once and kept: a preview is fetched by every service a link is
    shared on."""
    game, own = _finished_game(request, pk)
    if not (own or game.seed_shown):
        raise Http404(_("No such game here."))
    key = f"snapshot:{game.pk}:{step}"
    picture = cache.get(key)
    if picture is None:
        kept = kept_replay(game, compute=False)
        if kept is None and (wait := wait_seconds(request, "replay")):
            return too_many(request, wait)
        shown = replay_step(game, step, kept).shown
        if shown is None:
            raise Http404(_("This game has no such step."))
        picture = position_png(shown.state.position)
        cache.set(key, picture, SNAPSHOT_SECONDS)
    response = HttpResponse(picture, content_type="image/png")
    # Shared caches may keep it only when a stranger could see it too (its owner's own request says nothing of that).
    patch_cache_control(response, max_age=SNAPSHOT_SECONDS, **({"private": True} if own else {"public": True}))
    return response


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
    game = _owned_game(request, pk)
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
    return render(request, "games/game_delete.html", {"game": game, "on_record": leaves_a_record(game)})


@require_safe
def rules(request: SiteRequest) -> HttpResponse:
    context = {
        "idle_cap": idle_cap_words(),
        "max_actions": engine.MAX_ACTIONS,
        "fast_move_ms": pace.FAST_MOVE_MS,
        "game_ms_per_move": pace.GAME_MS_PER_MOVE,
        "review_top": settings.ADDICTION_REVIEW_TOP,
        "pictures": rules_pictures(),
        "variant_pictures": variant_pictures(),
    }
    return render(request, "games/rules.html", context)


def _back(request: HttpRequest, otherwise: str) -> str:
    """Where a settings post goes back to: its ``next`` if it is on this site, else ``otherwise``."""
    back = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return back
    return otherwise


@require_http_methods(["GET", "HEAD", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    """The player's choices for the table (marking, colours, motion), kept in this browser's
    cookies (games/preferences.py)."""
    if request.method != "POST":
        form = SettingsForm(initial=chosen(request))
        return render(request, "games/settings.html", {"form": form, "next": request.GET.get("next", "")})
    form = SettingsForm(request.POST)
    if not form.is_valid():
        return render(request, "games/settings.html", {"form": form, "next": request.POST.get("next", "")}, status=400)
    # Not redirect(): it would try ``next`` as a URL name first, and "-1" is none (a 500).
    response = HttpResponseRedirect(_back(request, request.path))
    remember(response, form.cleaned_data)
    messages.success(request, _("Settings saved."))
    return response


@require_POST
def mark_movable(request: SiteRequest) -> HttpResponse:
    """The game page's one-click switch for one of the settings: the marking of cards that can move."""
    response = HttpResponseRedirect(_back(request, "/"))
    remember(response, {"mark_movable": request.POST.get("on") == "1"})
    return response


# --------------------------------------------------------------------------- the installed site

# What the service worker keeps, so that an installed site opens at once (the page's files, by
# their hashed names: a deploy's new names make a new cache) and says it is offline without a
# connection.  The page's ES modules are every script in static/games/ (game.js imports them).
INSTALLED_FILES = (
    "games/site.css",
    "games/manifest.json",
    "games/icon.svg",
    "games/icon-192.png",
    "django_htmx/htmx-2.min.js",
)


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js, the service worker (games/templates/games/sw.js), at the site's root so that it
    serves every page: the static files from its cache, a page from the network, and the offline
    page when there is none.  Never a game: the server stays the authority (docs/RULES.md,
    "The installed site")."""
    modules = sorted(path.name for path in (settings.BASE_DIR / "static" / "games").glob("*.js"))
    files = [static(name) for name in (*INSTALLED_FILES, *(f"games/{module}" for module in modules))]
    offline = reverse("games:offline")
    version = hashlib.blake2s(repr((files, get_language())).encode(), digest_size=6).hexdigest()
    context = {"files": json.dumps(files), "offline": json.dumps(offline), "version": version}
    response = render(request, "games/sw.js", context, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"  # a new deploy's worker is fetched at the next visit
    return response


@require_safe
def offline_page(request: HttpRequest) -> HttpResponse:
    """What the installed site shows a page it cannot reach: the game is safe on the server."""
    return render(request, "games/offline.html")
