"""Where the other apps plug into a game's life, filled in their ``AppConfig.ready()``.

What the game's pages show beside the game (panels), who besides its owner may see a finished
game, what a player's data download holds, the upkeep the hourly housekeeping does, when a win
would stand near the top of a board, what the evidence on a win reads of its player and how a
revealed seed is checked: each is
a list the games app reads and other apps add to, as Django's admin reads what apps register.
So the games app names none of them (README.md, "Layout"; tests/site/test_layers.py holds it
to that, templates included), and an app is plugged in or out in one place, its ``ready()``.
The panels serve the other apps' pages the same way (a player's races on a records profile).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

PLACES = {
    "lobby": "the home page's links above its table (today's daily, races): a list item each",
    "home": "the home page, under its intro (today's daily deal)",
    "home_end": "the home page, at its end (an invitation to race)",
    "game_aside": "beside a game's table, and on its countdown (its race's standings)",
    "game_footer": "under a game's table (the daily's note, the deal's board)",
    "won": "inside a won game's result (the records it set)",
    "over": "inside a finished game's result, won or lost, redrawn with it (the daily's result to share)",
    "after_game": "a finished game's links; drawn from its presenters.table.Actions alone, which keys their cache",
    "my_games": "atop the My games page (signing up keeps a guest's games)",
    "deal": "a deal's page, whose subject is {'deal_number', 'variant'} (the deal's board)",
    "profile": "a player's profile (records), whose subject is the player (the races they joined)",
}
"""The places of the game's pages where panels stand, each drawn by ``{% panels "place" %}``."""


@dataclass(frozen=True)
class Panel:
    """One app's part of a page: its own template, and what that template draws, made by
    ``context(request, subject)`` (the game, the actions' value, or None on the home page);
    None means the panel has nothing to show there."""

    template: str
    context: Callable[[Any, Any], dict | None]


_panels: dict[str, list[Panel]] = {place: [] for place in PLACES}


def add_panel(place: str, template: str, context: Callable[[Any, Any], dict | None]) -> None:
    """Show ``template`` at ``place`` (one of PLACES) of the game's pages; panels stand in the
    order apps register them (INSTALLED_APPS)."""
    panel = Panel(template, context)
    if panel not in _panels[place]:  # ready() may run twice in a process (tests, checks)
        _panels[place].append(panel)


def panels(place: str) -> list[Panel]:
    return _panels[place]


_shown_to_others: list[Callable[[int], bool]] = []


def add_shown_to_others(check: Callable[[int], bool]) -> None:
    """Let visitors other than its owner see a finished game (its replay, verification and
    analysis) when ``check(game_id)`` says so: it stands on a board, its race has closed."""
    if check not in _shown_to_others:
        _shown_to_others.append(check)


def shown_to_others(game_id: int) -> bool:
    return any(check(game_id) for check in _shown_to_others)


@dataclass(frozen=True)
class Exporter:
    """One part of a player's data download (docs/RULES.md, "Players, guests and deleting
    games"): its key in the JSON document, and the rows of it that are ``user``'s."""

    key: str
    rows: Callable[[Any], Iterable[dict]]


_exporters: list[Exporter] = []


def add_exporter(key: str, rows: Callable[[Any], Iterable[dict]]) -> None:
    exporter = Exporter(key, rows)
    if exporter not in _exporters:
        _exporters.append(exporter)


def exporters() -> list[Exporter]:
    return list(_exporters)


@dataclass(frozen=True)
class Chore:
    """A piece of upkeep for the hourly ``manage.py housekeeping``: ``run(now=..., dry_run=...)``
    returns how many things it did (or, with ``dry_run``, would do), said after ``label``."""

    label: str
    run: Callable[..., int]


_chores: list[Chore] = []


def add_chore(label: str, run: Callable[..., int]) -> None:
    chore = Chore(label, run)
    if chore not in _chores:
        _chores.append(chore)


def chores() -> list[Chore]:
    return list(_chores)


_near_top: list[Callable[[Any], bool]] = []


def add_near_top(check: Callable[[Any], bool]) -> None:
    """Say when a win (a Game with an account for owner) would stand among the first places of
    a public board: such a win waits for review unless its evidence clears it (docs/RULES.md,
    "Review before the top")."""
    if check not in _near_top:
        _near_top.append(check)


def near_top(game) -> bool:
    return any(check(game) for check in _near_top)


_player_facts: list[Callable[[int], dict[str, int]]] = []


def add_player_facts(facts: Callable[[int], dict[str, int]]) -> None:
    """Add to the history the evidence on a win reads of its player (an account's id): the
    draws and guests their record counts, the races they joined (games/evidence.py, Facts)."""
    if facts not in _player_facts:
        _player_facts.append(facts)


def player_facts(user_id: int) -> dict[str, int]:
    found: dict[str, int] = {}
    for facts in _player_facts:
        found.update(facts(user_id))
    return found


_seed_checks: list[Callable[[Any], tuple[str, bool, str, str] | None]] = []


def add_seed_check(check: Callable[[Any], tuple[str, bool, str, str] | None]) -> None:
    """Add a check of a game's revealed seed to its verification: ``check(game)`` gives (its
    label, whether it holds, the game's value, the value it should be), or None when it has
    nothing to check (the daily's: a player's seed made from the day's)."""
    if check not in _seed_checks:
        _seed_checks.append(check)


def seed_checks() -> list[Callable[[Any], tuple[str, bool, str, str] | None]]:
    return list(_seed_checks)
