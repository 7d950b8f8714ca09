"""Opening, joining, starting and closing races (docs/RULES.md, "Races")."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from addiction_site.ownership import Owner
from games import engine
from games.models import Game
from games.selectors import game_pace
from games.services import ActionRefused, StaleVersion, TooManyGames, game_act, game_start, seed_digest
from races import notices
from races.models import MAX_PLAYERS, Entry, Race

LIVE_LIMIT = timedelta(minutes=30)  # a live race closes at the latest this long after its start
CHALLENGE_LENGTHS = {  # how long a challenge stays open: the choices of the form
    "1h": timedelta(hours=1),
    "1d": timedelta(days=1),
    "3d": timedelta(days=3),
    "7d": timedelta(days=7),
}


class RaceRefused(Exception):
    """What a player asked of a race cannot be done; ``reason`` says why, for the page."""

    def __init__(self, reason: str):
        super().__init__(reason)
        # Joining: "full", "started", "closed", "name taken", "joined"; starting: "not the host",
        # "started", "closed", "nobody can play"; removing a player: "not the host", "not joined",
        # "the host", "a challenge", "too late".
        self.reason = reason


def _owner_fields(owner: Owner) -> dict:
    return {"user_id": owner.user_id, "guest_token": "" if owner.user_id else owner.guest_token}


def entry_of(race: Race, owner: Owner) -> Entry | None:
    """``owner``'s entry in ``race``, if they joined it."""
    if owner.user_id is not None:
        return race.entries.filter(user_id=owner.user_id).first()
    if owner.guest_token:
        return race.entries.filter(guest_token=owner.guest_token).first()
    return None


def race_open(
    *,
    owner: Owner,
    name: str,
    mode: str,
    deal_number: int | None,
    length: str = "1d",
    variant: str = engine.DEFAULT_VARIANT.key,
    now: datetime | None = None,
) -> Race:
    """A new race of ``variant`` hosted by ``owner`` (its first player, as ``name``) on
    ``deal_number`` (a random deal when None), with a secret seed of its own whose SHA-256 is
    shown from now."""
    now = now or timezone.now()
    seed = str(secrets.randbits(128))
    race = Race.objects.create(
        code=secrets.token_urlsafe(8),
        host_id=owner.user_id,
        host_guest_token="" if owner.user_id else owner.guest_token,
        deal_number=deal_number if deal_number is not None else secrets.randbelow(engine.DRAWN_DEALS) + 1,
        seed=seed,
        seed_sha256=seed_digest(seed),
        mode=mode,
        variant=variant,
        closes_at=now + CHALLENGE_LENGTHS[length] if mode == Race.Mode.CHALLENGE else None,
    )
    race_join(race=race, owner=owner, name=name, now=now)
    return race


def is_host(race: Race, owner: Owner) -> bool:
    if owner.user_id is not None:
        return race.host_id == owner.user_id
    return bool(owner.guest_token) and race.host_guest_token == owner.guest_token


def race_join(*, race: Race, owner: Owner, name: str, now: datetime | None = None) -> Entry:
    """``owner`` joins ``race`` as ``name``: a live race before its start, a challenge while
    open (its game is dealt at once: the challenge's clock is each player's own)."""
    race_close_if_due(race, now=now)
    if race.is_closed:
        raise RaceRefused("closed")
    if race.state == Race.State.RUNNING:
        raise RaceRefused("started")
    if entry_of(race, owner) is not None:
        raise RaceRefused("joined")
    with transaction.atomic():
        Race.objects.select_for_update().filter(pk=race.pk).values_list("pk").get()  # one join at a time
        if race.entries.count() >= MAX_PLAYERS:
            raise RaceRefused("full")
        try:
            with transaction.atomic():
                entry = Entry.objects.create(race=race, name=name, **_owner_fields(owner))
        except IntegrityError:
            raise RaceRefused("name taken" if race.entries.filter(name=name).exists() else "joined") from None
        if race.mode == Race.Mode.CHALLENGE:
            entry.game = _deal(race, owner, now)
            entry.save(update_fields=["game"])
        _roster_changed(race)
    return entry


def _roster_changed(race: Race) -> None:
    """Count a change to the race's players (a snapshot with fewer rows can be the newer one:
    selectors.Snapshot.order) and tell its streams once it is committed."""
    Race.objects.filter(pk=race.pk).update(roster=F("roster") + 1)
    transaction.on_commit(partial(notices.tell, race.pk))


def race_remove(*, race: Race, owner: Owner, entry_id: int) -> str:
    """The host takes a player out of a live race before its start (docs/RULES.md, "Races"): their
    entry is gone, as if they had not joined; returns the name they had in it.  Nobody has a game
    of a live race before its start, so there is none to clean up; nor can the host take anyone
    out of a challenge, whose players play from when they join."""
    if not is_host(race, owner):
        raise RaceRefused("not the host")
    with transaction.atomic():
        state, mode = Race.objects.select_for_update().filter(pk=race.pk).values_list("state", "mode").get()
        if mode == Race.Mode.CHALLENGE:
            raise RaceRefused("a challenge")
        if state != Race.State.OPEN:  # the start (or the close) got there first
            raise RaceRefused("too late")
        entry = race.entries.filter(pk=entry_id).first()
        if entry is None:
            raise RaceRefused("not joined")
        if is_host(race, Owner(user_id=entry.user_id, guest_token=entry.guest_token)):
            raise RaceRefused("the host")
        entry.delete()
        _roster_changed(race)
    return entry.name


def _deal(race: Race, owner: Owner, now: datetime | None, *, starts_at: datetime | None = None) -> Game:
    return game_start(
        owner=owner,
        deal_number=race.deal_number,
        origin=Game.Origin.RACE,
        seed=race.seed,
        sealed=True,
        variant=race.variant,
        now=now,
        starts_at=starts_at,
    )


def race_start(*, race: Race, owner: Owner, now: datetime | None = None) -> Race:
    """The host starts a live race: after a countdown of ``ADDICTION_RACE_COUNTDOWN_SECONDS``,
    every clock starts at one server moment, ``race.started_at``.  Every player's game is dealt
    now, to start then: until then its page counts down and its table is not shown, and it
    refuses every action (games/services.py).  A player who cannot be dealt a game (too many
    games in progress) does not hold the others up: their entry is marked ``unable``, and the
    race starts without them, unless nobody at all can play."""
    if not is_host(race, owner):
        raise RaceRefused("not the host")
    if race.mode != Race.Mode.LIVE or race.state != Race.State.OPEN:
        raise RaceRefused("started" if race.state == Race.State.RUNNING else "closed")
    now = now or timezone.now()
    start = now + timedelta(seconds=settings.ADDICTION_RACE_COUNTDOWN_SECONDS)
    with transaction.atomic():
        if not Race.objects.filter(pk=race.pk, state=Race.State.OPEN).update(
            state=Race.State.RUNNING, started_at=start, closes_at=start + LIVE_LIMIT
        ):
            raise RaceRefused("started")
        dealt = 0
        for entry in race.entries.order_by("pk"):
            owner_of_entry = Owner(user_id=entry.user_id, guest_token=entry.guest_token)
            try:  # game_start changes nothing when it refuses: the others' games stand
                entry.game = _deal(race, owner_of_entry, now, starts_at=start)
                dealt += 1
            except TooManyGames:
                entry.unable = True
            entry.save(update_fields=["game", "unable"])
        if not dealt:
            raise RaceRefused("nobody can play")  # and the race stays open, as it was
        transaction.on_commit(partial(notices.tell, race.pk))
    race.refresh_from_db()
    return race


def entry_pace_judge(*, game: Game) -> None:
    """Keep on its entry whether a race's game that has just ended was played faster than a
    person plays (games/pace.py; docs/RULES.md, "Races"): it then ranks after the games at a
    person's pace.  A finished game never changes, so its pace is read once, as it ends."""
    Entry.objects.filter(game_id=game.pk).update(too_fast=not game_pace(game).human)


def race_close_if_due(race: Race, *, now: datetime | None = None) -> bool:
    """Close ``race`` if its time is up, or if it ran and every game in it is over: a game
    still in play is given up as it stands, and every game's seed, the race's, is shown from
    then on.  Returns whether this call closed it."""
    now = now or timezone.now()
    if race.state == Race.State.CLOSED:
        return False
    games = Game.objects.filter(race_entry__race=race)
    due = race.closes_at is not None and now >= race.closes_at
    all_over = race.state == Race.State.RUNNING and not games.filter(status=engine.Status.PLAYING).exists()
    if not (due or all_over):
        return False
    with transaction.atomic():
        if (
            not Race.objects.filter(pk=race.pk)
            .exclude(state=Race.State.CLOSED)
            .update(state=Race.State.CLOSED, closed_at=now)
        ):
            return False
        for game in games.filter(status=engine.Status.PLAYING):
            _give_up(game, now)
        games.update(sealed=False)
        transaction.on_commit(partial(notices.tell, race.pk))
    race.refresh_from_db()
    return True


def race_close_due(*, race_id: int, now: datetime | None = None) -> bool:
    """Close the race ``race_id`` if it is due (:func:`race_close_if_due`): what the worker's task
    and the housekeeping's sweep run.  Returns whether this call closed it."""
    race = Race.objects.filter(pk=race_id).first()
    return race is not None and race_close_if_due(race, now=now)


def races_close_due(*, now: datetime, dry_run: bool = False) -> int:
    """Close every race whose time is up (the hourly housekeeping's sweep, behind the worker's
    task at each race's ``closes_at``); how many were (or, with ``dry_run``, would be) closed."""
    due = Race.objects.exclude(state=Race.State.CLOSED).filter(closes_at__lte=now).values_list("pk", flat=True)
    if dry_run:
        return due.count()
    return sum(race_close_due(race_id=race_id, now=now) for race_id in list(due))


def _give_up(game: Game, now: datetime) -> None:
    """Give up a race's game still in play at the close (a move may land meanwhile: then again)."""
    owner = Owner(user_id=game.owner_id, guest_token=game.guest_token)
    for _attempt in range(5):
        try:
            game_act(owner=owner, game_id=game.pk, version=game.version, kind=engine.ActionKind.RESIGN, now=now)
            return
        except StaleVersion as stale:
            game = stale.game
        except ActionRefused:  # over already
            return


def races_claim(*, user, guest_token: str) -> int:
    """A guest who signs up or logs in keeps their races: their entries and the races they host
    become the account's (games.services.games_claim gives it their games).  A race the account
    is already in keeps the guest's entry as it was, a guest's."""
    if not guest_token:
        return 0
    with transaction.atomic():
        taken = Entry.objects.filter(user=user).values("race_id")
        claimed = (
            Entry.objects.filter(guest_token=guest_token).exclude(race_id__in=taken).update(user=user, guest_token="")
        )
        Race.objects.filter(host_guest_token=guest_token, host__isnull=True).update(host=user, host_guest_token="")
    return claimed
