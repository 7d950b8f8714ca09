"""The game's table as HTML: the grid of 52 slots and the status bar above it.

Every action answers with both (htmx swaps them in), so they are built here in Python
rather than by templates: the template engine took about half of a move's server time
to write this markup, mostly in tags ({% url %}, {% translate %}) run again on every
click.  Here each distinct slot button is formatted once and reused from a cache, the
fixed words of each language are translated once, and a game's URLs reversed once.
The markup mirrors what templates/games/game.html shows around it; the script
(static/games/game.js), the stylesheet and the tests read its ids, classes and data-*.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.urls import get_script_prefix, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine
from games.board import RANK_FACES, SUIT_SYMBOLS, card_label, gap_label
from games.models import Game
from games.templatetags.games_extras import duration


@lru_cache(maxsize=8192)
def _url(prefix: str, name: str, *args) -> str:
    return reverse(name, args=args)


def url(name: str, *args) -> str:
    """reverse(), once per URL: a reversal costs about 15 µs, and a table shows seven."""
    return _url(get_script_prefix(), name, *args)


# ---- the grid


def slots_html(state: engine.GameState, *, over: bool) -> SafeString:
    """The 52 slot buttons, row by row, with what each can do in its label and classes."""
    position = state.position
    moves = [] if over else position.legal_moves()
    movable = {move.src for move in moves}
    fits = {}
    for move in moves:
        fits.setdefault(move.dst, move.card)
    for (r, c) in fits:
        if c == 0:  # a 2 goes to the topmost gap of column 0 it fits; the click rule says which
            fits[r, c] = position.move_for_slot((r, c)).card
    locked = position.locked()
    dead = set(position.dead_gaps())
    language = get_language()
    html = []
    for r, row in enumerate(position.rows()):
        html.append('<div class="row">')
        for c, token in enumerate(row):
            slot = (r, c)
            if token is None:
                html.append(_gap_button(language, r, c, fits.get(slot, ""), slot in dead, over))
            else:
                html.append(_card_button(language, r, c, token, slot in locked, slot in movable, over))
        html.append("</div>")
    return mark_safe("".join(html))


@lru_cache(maxsize=50_000)
def _gap_button(language: str, r: int, c: int, fit: str, dead: bool, over: bool) -> str:
    return _button(f"{r}-{c}", "", gap_label(r, c, fit), over, "gap dead" if dead else "gap", "")


@lru_cache(maxsize=50_000)
def _card_button(language: str, r: int, c: int, token: str, locked: bool, movable: bool, over: bool) -> str:
    label = card_label(r, c, token, locked=locked, movable=movable)
    classes = "card" + " red" * (token[1] in "HD") + " locked" * locked + " movable" * movable
    face = format_html(
        '<span class="rank" aria-hidden="true">{}</span><span class="suit" aria-hidden="true">{}</span>',
        RANK_FACES.get(token[0], token[0]), SUIT_SYMBOLS[token[1]],
    )
    return _button(f"{r}-{c}", token, label, over, classes, face)


def _button(slot: str, card: str, label: str, over: bool, classes: str, face: str) -> str:
    return format_html(
        '<button type="submit" name="slot" value="{0}" data-slot="{0}" data-card="{1}" aria-label="{2}"{3}'
        ' class="slot {4}">{5}</button>',
        slot, card, label, mark_safe(' aria-disabled="true"') if over else "", classes, face,
    )


def grid_html(game: Game, *, csrf_token: str, mark_movable: bool) -> SafeString:
    """The form #grid: the slots, and the version they were drawn from."""
    move_url = url("games:move", game.pk)
    classes = "grid" + " mark-movable" * mark_movable + " over" * game.is_over
    return format_html(
        '<form id="grid" method="post" action="{0}" class="{1}"'
        ' hx-post="{0}" hx-target="this" hx-swap="outerHTML" hx-sync="this:drop"'
        ' data-version="{2}" data-status="{3}" data-moves="{4}" data-shuffles-left="{5}" aria-label="{6}">\n'
        '<input type="hidden" name="csrfmiddlewaretoken" value="{7}">\n'
        '<input type="hidden" name="version" value="{2}">\n{8}</form>\n',
        move_url, classes, game.version, game.status, game.moves, game.shuffles_left, _("The table"),
        csrf_token, slots_html(game.state(), over=game.is_over),
    )


# ---- the status bar


@dataclass(frozen=True)
class Status:
    """What the status bar shows besides the game itself."""

    note: str  # a refusal's reason, or ""
    stuck: bool  # playing, and no card can move
    elapsed_ms: int  # the game's time now
    tick_ms_left: int  # how long the clock may tick on before the idle cap
    signed_in: bool
    oob: bool  # sent beside the grid, for htmx to swap in out of band


def status_html(game: Game, status: Status, *, csrf_token: str) -> SafeString:
    """The section #status: counters, the result or a note, and the actions."""
    csrf = format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', csrf_token)
    clock = duration(status.elapsed_ms)
    counters = format_html(
        '<dl class="counters">'
        '<div><dt>{}</dt><dd>#{}</dd></div><div><dt>{}</dt><dd>{}</dd></div>'
        '<div><dt>{}</dt><dd>{}</dd></div><div><dt>{}</dt><dd>'
        '<time id="clock" data-elapsed-ms="{}" data-tick-ms-left="{}">{}</time></dd></div></dl>',
        _("Deal"), game.deal_number, _("Moves"), game.moves, _("Shuffles left"), game.shuffles_left,
        _("Time"), status.elapsed_ms, status.tick_ms_left, clock,
    )
    return format_html(
        '<section id="status" class="status"{} aria-label="{}" data-error-text="{}" data-refused-text="{}">\n'
        '{}\n<div class="note">{}{}</div>\n<div class="actions">{}</div>\n</section>\n',
        mark_safe(' hx-swap-oob="true"') if status.oob else "", _("Game status"),
        _("The server could not be reached. Nothing was changed; try again."),
        _("The server refused that. Reload the page to see the game as it is."),
        counters, format_html('<p class="warning">{}</p>', status.note) if status.note else "",
        _result(game, status), _actions(game, status, csrf),
    )


def _result(game: Game, status: Status) -> str:
    figures = {"moves": game.moves, "time": duration(game.elapsed_ms)}
    if game.status == Game.Status.WON:
        return format_html('<p class="result won">{}</p>', _("You won, in %(moves)s moves and %(time)s!") % figures)
    if game.status == Game.Status.LOST:
        why = (_("You gave up this game.") if game.resigned
               else _("No card can move and no shuffle is left: the game is lost."))
        return format_html('<p class="result lost">{} {}</p>', why, _("%(moves)s moves, %(time)s.") % figures)
    if status.stuck:
        left = game.shuffles_left
        return format_html('<p class="stuck">{}</p>', ngettext(
            "No card can move. Shuffle the cards that are not in place (%(left)s shuffle left).",
            "No card can move. Shuffle the cards that are not in place (%(left)s shuffles left).",
            left) % {"left": left})
    return ""


def _actions(game: Game, status: Status, csrf: str) -> str:
    new_game = format_html(
        '<form method="post" action="{}" class="inline">{}<button type="submit"{}>{}</button></form>',
        url("games:new"), csrf, mark_safe(' class="primary"') if game.is_over else "", _("New game"),
    )
    if game.is_over:
        links = [
            (url("games:deal_leaderboard", game.deal_number), _("Leaderboard of this deal")),
            (url("games:replay_start", game.pk), _("Replay")),
            (url("games:verify", game.pk), _("Verify")),
        ]
        if game.status == Game.Status.WON and not status.signed_in:
            links.append((url("games:signup"), _("Sign up to put this win on the leaderboards")))
        again = format_html(
            '<form method="post" action="{}" class="inline">{}'
            '<input type="hidden" name="deal_number" value="{}"><button type="submit">{}</button></form>',
            url("games:new"), csrf, game.deal_number,
            _("Play deal #%(number)s again") % {"number": game.deal_number},
        )
        after = mark_safe(" · ".join(format_html('<a href="{}">{}</a>', href, text) for href, text in links))
        return format_html('<p class="after-game">{}</p>{}{}', after, new_game, again)
    left = game.shuffles_left
    forms = [
        _action_form(game, "games:undo", csrf, _("Undo"), disabled=not game.state().can_undo),
        _action_form(game, "games:shuffle", csrf, ngettext("Shuffle (%(left)s left)", "Shuffle (%(left)s left)", left)
                     % {"left": left}, disabled=not left, primary=status.stuck),
        _action_form(game, "games:resign", csrf, _("Give up"),
                     confirm=_("Give up this game? It will count as lost.")),
    ]
    return mark_safe("".join(forms) + new_game)


def _action_form(game: Game, name: str, csrf: str, text: str, *, disabled: bool = False,
                 primary: bool = False, confirm: str = "") -> str:
    """A form that posts one action with the version it was drawn from, by htmx or plainly."""
    action_url = url(name, game.pk)
    return format_html(
        '<form method="post" action="{0}" class="inline" hx-post="{0}" hx-target="#grid" hx-swap="outerHTML"'
        ' hx-sync="#grid:drop"{1}>{2}<input type="hidden" name="version" value="{3}">'
        '<button type="submit"{4}{5}>{6}</button></form>',
        action_url, format_html(' hx-confirm="{}"', confirm) if confirm else "", csrf, game.version,
        mark_safe(' class="primary"') if primary else "", mark_safe(" disabled") if disabled else "", text,
    )
