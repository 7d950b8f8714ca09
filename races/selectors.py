"""What a race's page shows: its standings, ranked by the race's own order (docs/RULES.md, "Races")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games import engine
from games.clock import elapsed_at
from races.models import Entry, Race

WAITING, PLAYING, WON, LOST, GAVE_UP = "waiting", "playing", "won", "lost", "gave-up"


@dataclass(frozen=True)
class Standing:
    """One player's row: figures only, never their table, until the race closes."""

    entry: Entry
    state: str  # waiting (not dealt yet), playing, won, lost or gave-up
    in_place: int  # cards locked in their rows, of 48
    moves: int
    shuffles_left: int
    elapsed_ms: int

    @property
    def name(self) -> str:
        return self.entry.name


def standing_of(entry: Entry, now: datetime) -> Standing:
    game = entry.game
    if game is None:
        return Standing(entry, WAITING, 0, 0, engine.SHUFFLES, 0)
    state = game.state()
    if game.status == engine.Status.WON:
        kind = WON
    elif game.status == engine.Status.LOST:
        kind = GAVE_UP if game.resigned else LOST
    else:
        kind = PLAYING
    return Standing(entry, kind, len(state.position.locked()), game.moves, state.shuffles_left, elapsed_at(game, now))


def rank_key(standing: Standing) -> tuple:
    """Won first, by time, then moves; then the others by cards in place, then fewer moves."""
    if standing.state == WON:
        return (0, standing.elapsed_ms, standing.moves, standing.entry.pk)
    return (1, -standing.in_place, standing.moves, standing.entry.pk)


def standings(race: Race, now: datetime) -> list[Standing]:
    entries = race.entries.select_related("game").order_by("pk")
    return sorted((standing_of(entry, now) for entry in entries), key=rank_key)
