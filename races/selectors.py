"""What a race's page shows: its standings, ranked by the race's own order, and what changed
between two of them (docs/RULES.md, "Races")."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass
from datetime import datetime

from games import engine
from games.clock import elapsed_at
from games.models import Game
from races.models import Entry, Race

WAITING, PLAYING, WON, LOST, GAVE_UP = "waiting", "playing", "won", "lost", "gave-up"
UNABLE = "unable"  # not dealt at a live race's start: too many games in progress
FINISHED = (WON, LOST, GAVE_UP)
HELD, FAST = "held", "fast"  # a game's pace, when it ended faster than a person plays
RACE_STATES = (Race.State.OPEN, Race.State.RUNNING, Race.State.CLOSED)


@dataclass(frozen=True)
class Standing:
    """One player's row: figures only, never their table, until the race closes.  Plain
    values, so that a snapshot travels through the channel layer (races/notices.py, races/stream.py) as it is."""

    entry_id: int
    name: str
    game_id: int | None
    state: str  # waiting (not dealt yet), playing, won, lost, gave-up, or unable (not dealt at the start)
    in_place: int  # cards locked in their rows, of ``cards``
    moves: int
    shuffles_left: int
    elapsed_ms: int
    version: int = 0  # the game's own version: only ever grows
    cards: int = 48  # the cards on the race's table: 52 where the aces stay (Blue Moon, Red Moon)
    pace: str = ""  # "" at a person's pace (or not over yet); held (a win held for review) or fast


@dataclass(frozen=True)
class Snapshot:
    """A race's standings at one moment, with what orders two of them: a later snapshot has a
    later race state, more changes to its players (``roster``: a join, a removal), or more
    actions in all (``order``)."""

    state: str
    rows: tuple[Standing, ...]
    roster: int = 0

    @property
    def order(self) -> tuple[int, int, int]:
        return (RACE_STATES.index(self.state), self.roster, sum(row.version for row in self.rows))

    @property
    def figures(self) -> tuple:
        """What the page shows, but the clock: two snapshots alike here need not be sent twice."""
        rows = tuple(
            (row.entry_id, row.state, row.in_place, row.moves, row.shuffles_left, row.pace) for row in self.rows
        )
        return (self.state, rows)

    def as_message(self) -> dict:
        return {"state": self.state, "rows": [asdict(row) for row in self.rows], "roster": self.roster}

    @classmethod
    def from_message(cls, message: dict) -> Snapshot:
        rows = tuple(Standing(**row) for row in message["rows"])
        return cls(message["state"], rows, message.get("roster", 0))  # a server on the older code sends none


def pace_shown(entry: Entry, game: Game) -> str:
    """The pace of ``entry``'s game as the standings say it (docs/RULES.md, "Races"): "" when it
    ended at a person's pace, is not over, or a moderator approved its win; HELD for a win
    held for review; FAST for any other game that ended faster than a person plays."""
    if not entry.too_fast or game.review == Game.Review.APPROVED:
        return ""
    return HELD if game.review == Game.Review.HELD else FAST


def standing_of(entry: Entry, now: datetime) -> Standing:
    game = entry.game
    rules = engine.variant_of(entry.race.variant)
    if game is None:
        kind = UNABLE if entry.unable else WAITING
        return Standing(entry.pk, entry.name, None, kind, 0, 0, rules.shuffles, 0, cards=rules.cards)
    state = game.state()
    if game.status == engine.Status.WON:
        kind = WON
    elif game.status == engine.Status.LOST:
        kind = GAVE_UP if game.resigned else LOST
    else:
        kind = PLAYING
    return Standing(
        entry.pk,
        entry.name,
        game.pk,
        kind,
        len(state.position.locked()),
        game.moves,
        state.shuffles_left,
        elapsed_at(game, now),
        game.version,
        rules.cards,
        pace_shown(entry, game),
    )


def rank_key(standing: Standing) -> tuple:
    """The games at a person's pace first: won first, by time, then moves; then the others by
    cards in place, then fewer moves.  Then, in the same order, the games that ended faster than
    a person plays; last, the players a live race's start could not deal to."""
    tier = 2 if standing.state == UNABLE else 1 if standing.pace else 0
    if standing.state == WON:
        return (tier, 0, standing.elapsed_ms, standing.moves, standing.entry_id)
    return (tier, 1, -standing.in_place, standing.moves, standing.entry_id)


def standings(race: Race, now: datetime) -> list[Standing]:
    entries = race.entries.select_related("game").order_by("pk")
    return sorted((standing_of(entry, now) for entry in entries), key=rank_key)


def snapshot(race: Race, now: datetime) -> Snapshot:
    return Snapshot(race.state, tuple(standings(race, now)), race.roster)


def entry_of_game(game) -> Entry | None:
    """The race entry whose game ``game`` is, with its race, or None for a game of no race."""
    if game.origin != game.Origin.RACE:
        return None
    return Entry.objects.select_related("race").filter(game_id=game.pk).first()


def race_id_of_game(game) -> int | None:
    """The race whose game ``game`` is, or None."""
    entry = entry_of_game(game)
    return None if entry is None else entry.race_id


def game_of_closed_race(game_id: int) -> bool:
    """Whether the game is a race's whose race has closed: then anyone may see its replay
    (docs/RULES.md, "Races")."""
    return Entry.objects.filter(game_id=game_id, race__state=Race.State.CLOSED).exists()


def race_facts(user_id: int) -> dict[str, int]:
    """What the evidence on a win reads of its player's races (games/evidence.py, Facts)."""
    return {"races": Entry.objects.filter(user_id=user_id).count()}


def races_data(user) -> Iterator[dict]:
    """The races ``user`` joined, as their data download gives them: the race, their entry and
    their game in it (the game itself is among their games)."""
    entries = Entry.objects.filter(user=user).select_related("race").order_by("joined_at", "pk")
    for entry in entries.iterator(chunk_size=500):
        race = entry.race
        yield {
            "race": race.code,
            "variant": race.variant,
            "deal_number": race.deal_number if race.deal_shown_to(entry) else None,  # none before the start
            "mode": race.mode,
            "state": race.state,
            "hosted": race.host_id == user.pk,
            "seed_sha256": race.seed_sha256,
            "created_at": race.created_at,
            "started_at": race.started_at,
            "closed_at": race.closed_at,
            "name": entry.name,
            "joined_at": entry.joined_at,
            "game": entry.game_id,
        }


def race_of(code: str) -> Race | None:
    """The race whose link carries ``code``, or None."""
    return Race.objects.filter(code=code).first()


def race_snapshot(*, now: datetime, race_id: int | None = None, code: str | None = None) -> tuple[int, Snapshot] | None:
    """A race's id and its standings at ``now``, the race found by its id or its code; None if there is none."""
    race = Race.objects.filter(pk=race_id).first() if race_id is not None else race_of(code or "")
    return None if race is None else (race.pk, snapshot(race, now))


@dataclass(frozen=True)
class News:
    """One thing worth saying aloud between two snapshots: ``kind`` is "started", "closed",
    "overtook" (``name`` passed ``other``), or a finish: "won", "lost" (stuck), "gave-up", or
    "fast" (any finish faster than a person plays)."""

    kind: str
    name: str = ""
    other: str = ""


def news(before: Snapshot, after: Snapshot) -> list[News]:
    """What changed from ``before`` to ``after`` that a player listening would want to hear:
    the start, the close, each finish, and each overtake (a player now ranked above one who
    was above them); never a move that changes no rank, nor a rank that changed because a
    game ended faster than a person plays or a player could not be dealt one."""
    said: list[News] = []
    if before.state != after.state and after.state == Race.State.RUNNING:
        said.append(News("started"))
    was = {row.entry_id: row for row in before.rows}
    rank_before = {row.entry_id: rank for rank, row in enumerate(before.rows)}
    rank_after = {row.entry_id: rank for rank, row in enumerate(after.rows)}
    finished = set()
    for row in after.rows:
        old = was.get(row.entry_id)
        if old is not None and old.state not in FINISHED and row.state in FINISHED:
            said.append(News(FAST if row.pace else row.state, row.name))
            finished.add(row.entry_id)
    left_behind = {row.entry_id for row in after.rows if row.pace or row.state == UNABLE}
    for row in after.rows:  # a finish says enough: the ranks it passed are not said again
        if row.entry_id not in rank_before or row.entry_id in finished | left_behind:
            continue
        for other in after.rows:
            if other.entry_id == row.entry_id or other.entry_id not in rank_before or other.entry_id in left_behind:
                continue
            was_below = rank_before[row.entry_id] > rank_before[other.entry_id]
            passed = was_below and rank_after[row.entry_id] < rank_after[other.entry_id]
            if passed and row.state != WAITING:
                said.append(News("overtook", row.name, other.name))
    if before.state != after.state and after.state == Race.State.CLOSED:
        said.append(News("closed"))
    return said


@dataclass(frozen=True)
class RaceOfPlayer:
    """One race on a player's profile: the race, the player's row, and their place once it closed."""

    race: Race
    standing: Standing
    place: int | None
    players: int


def races_of(user, now: datetime, limit: int = 20) -> list[RaceOfPlayer]:
    """The ``limit`` races ``user`` joined last, newest first: two queries, however many."""
    entries = list(Entry.objects.filter(user=user).select_related("race").order_by("-joined_at", "-pk")[:limit])
    everyone: dict[int, list[Entry]] = {}
    for other in Entry.objects.filter(race_id__in=[e.race_id for e in entries]).select_related("game", "race"):
        everyone.setdefault(other.race_id, []).append(other)
    found = []
    for entry in entries:
        rows = sorted((standing_of(other, now) for other in everyone[entry.race_id]), key=rank_key)
        rank = next(index for index, row in enumerate(rows) if row.entry_id == entry.pk)
        place = rank + 1 if entry.race.is_closed and rows[rank].state != UNABLE else None
        found.append(RaceOfPlayer(entry.race, rows[rank], place, len(rows)))
    return found
