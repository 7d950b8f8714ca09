"""The game's table as HTML: the grid of 52 slots and the status bar above it.

Every action answers with both (htmx swaps them in), so they are built here in Python
rather than by templates: the template engine took about half of a move's server time
to write this markup, mostly in tags ({% url %}, {% translate %}) run again on every
click.  Here each distinct slot button is formatted once and reused from a cache, the
fixed words of each language are translated once, and a game's URLs reversed once.
The page around them is templates/games/game.html; the script
(static/games/game.js), the stylesheet and the tests read its ids, classes and data-*.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.urls import get_script_prefix, reverse
from django.utils.html import escape, format_html
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
    return escape(reverse(name, args=args))


def url(name: str, *args) -> str:
    """reverse(), HTML-escaped, once per URL: a reversal costs about 15 µs, and a table shows seven."""
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


def grid_html(game: Game, *, csrf_token: str | None, mark_movable: bool) -> SafeString:
    """The form #grid: the slots, and the version they were drawn from."""
    move_url = url("games:move", game.pk)
    classes = "grid" + " mark-movable" * mark_movable + " over" * game.is_over
    return mark_safe(
        f'<form id="grid" method="post" action="{move_url}" class="{classes}"'
        f' hx-post="{move_url}" hx-target="this" hx-swap="outerHTML" hx-sync="this:drop"'
        f' data-version="{game.version}" data-status="{game.status}" data-moves="{game.moves}"'
        f' data-shuffles-left="{game.shuffles_left}" aria-label="{_words(get_language())["table"]}">\n'
        f'{_csrf_input(csrf_token)}<input type="hidden" name="version" value="{game.version}">\n'
        f'{slots_html(game.state(), over=game.is_over)}</form>\n'
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


@lru_cache(maxsize=None)
def _words(language: str) -> dict[str, str]:
    """The status bar's fixed words in ``language``, translated and HTML-escaped once."""
    return {key: escape(text) for key, text in {
        "table": _("The table"), "status": _("Game status"),
        "error": _("The server could not be reached. Nothing was changed; try again."),
        "refused": _("The server refused that. Reload the page to see the game as it is."),
        "deal": _("Deal"), "moves": _("Moves"), "shuffles_left": _("Shuffles left"), "time": _("Time"),
        "undo": _("Undo"), "give_up": _("Give up"), "confirm": _("Give up this game? It will count as lost."),
        "new_game": _("New game"), "deal_board": _("Leaderboard of this deal"), "replay": _("Replay"),
        "verify": _("Verify"), "sign_up": _("Sign up to put this win on the leaderboards"),
    }.items()}


@lru_cache(maxsize=64)
def _shuffle_words(language: str, left: int) -> str:
    return escape(ngettext("Shuffle (%(left)s left)", "Shuffle (%(left)s left)", left) % {"left": left})


def status_html(game: Game, status: Status, *, csrf_token: str | None) -> SafeString:
    """The section #status: counters, the result or a note, and the actions.

    Every value written into the markup below is a number, a URL from ``url``, a phrase
    from ``_words`` (all escaped once) or escaped here.
    """
    words = _words(get_language())
    oob = ' hx-swap-oob="true"' if status.oob else ""
    note = f'<p class="warning">{escape(status.note)}</p>' if status.note else ""
    return mark_safe(
        f'<section id="status" class="status"{oob} aria-label="{words["status"]}"'
        f' data-error-text="{words["error"]}" data-refused-text="{words["refused"]}">\n'
        f'<dl class="counters">'
        f'<div><dt>{words["deal"]}</dt><dd>#{game.deal_number}</dd></div>'
        f'<div><dt>{words["moves"]}</dt><dd>{game.moves}</dd></div>'
        f'<div><dt>{words["shuffles_left"]}</dt><dd>{game.shuffles_left}</dd></div>'
        f'<div><dt>{words["time"]}</dt><dd><time id="clock" data-elapsed-ms="{status.elapsed_ms}"'
        f' data-tick-ms-left="{status.tick_ms_left}">{duration(status.elapsed_ms)}</time></dd></div></dl>\n'
        f'<div class="note">{note}{_result(game, status)}</div>\n'
        f'<div class="actions">{_actions(game, status, words, csrf_token)}</div>\n</section>\n'
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


def _csrf_input(csrf_token: str | None) -> str:
    """The hidden CSRF field of a form posted without htmx; htmx sends the token in a header."""
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{csrf_token}">' if csrf_token else ""


def _actions(game: Game, status: Status, words: dict[str, str], csrf_token: str | None) -> str:
    # A new game is a page of its own: with htmx the form is boosted (posted by htmx, the
    # CSRF token in its header, the answer swapped in as a whole page), without it posted.
    new_url, csrf = url("games:new"), _csrf_input(csrf_token)
    primary = ' class="primary"' if game.is_over else ""
    new_game = (
        f'<form method="post" action="{new_url}" class="inline" hx-boost="true">{csrf}'
        f'<button type="submit"{primary}>{words["new_game"]}</button></form>'
    )
    if game.is_over:
        links = [
            (url("games:deal_leaderboard", game.deal_number), words["deal_board"]),
            (url("games:replay_start", game.pk), words["replay"]),
            (url("games:verify", game.pk), words["verify"]),
        ]
        if game.status == Game.Status.WON and not status.signed_in:
            links.append((url("games:signup"), words["sign_up"]))
        after = " · ".join(f'<a href="{href}">{text}</a>' for href, text in links)
        again = escape(_("Play deal #%(number)s again") % {"number": game.deal_number})
        return (
            f'<p class="after-game">{after}</p>{new_game}'
            f'<form method="post" action="{new_url}" class="inline" hx-boost="true">{csrf}'
            f'<input type="hidden" name="deal_number" value="{game.deal_number}">'
            f'<button type="submit">{again}</button></form>'
        )
    left = game.shuffles_left
    return (
        _action_form(game, "games:undo", csrf, words["undo"], disabled=not game.state().can_undo)
        + _action_form(game, "games:shuffle", csrf, _shuffle_words(get_language(), left),
                       disabled=not left, primary=status.stuck)
        + _action_form(game, "games:resign", csrf, words["give_up"], confirm=words["confirm"])
        + new_game
    )


def _action_form(game: Game, name: str, csrf: str, text: str, *, disabled: bool = False,
                 primary: bool = False, confirm: str = "") -> str:
    """A form that posts one action with the version it was drawn from, by htmx or plainly."""
    action_url = url(name, game.pk)
    confirm = f' hx-confirm="{confirm}"' if confirm else ""
    button = (' class="primary"' if primary else "") + (" disabled" if disabled else "")
    return (
        f'<form method="post" action="{action_url}" class="inline" hx-post="{action_url}" hx-target="#grid"'
        f' hx-swap="outerHTML" hx-sync="#grid:drop"{confirm}>{csrf}'
        f'<input type="hidden" name="version" value="{game.version}">'
        f'<button type="submit"{button}>{text}</button></form>'
    )
