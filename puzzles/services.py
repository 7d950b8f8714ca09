"""What changes puzzles (docs/RULES.md, "Puzzles"): keeping the ones found, starting and playing
an attempt, the ratings an attempt moves, the day's puzzle, and a guest's history kept on
signing up.

An attempt is played as a game is (games/services.py, game_act): read without a lock, written
back with a compare-and-set on its version, so that of a double click or two tabs one move
stands and the other is told the page is stale.  A move is the engine's; whether it kept the
win is the solver's, within a bounded search (``PROOF_BUDGET``), and a move is called a slip
only when the search proves no win is left (a search that runs out says nothing)."""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Iterable
from datetime import date, datetime

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from addiction_site.ownership import Owner
from games import engine, solver
from games.models import Game
from games.replay import kept_replay
from games.selectors import game_analysis
from puzzles import build, glicko, selectors
from puzzles.build import KEEP_BUDGET, from_deal
from puzzles.build import Puzzle as Found
from puzzles.models import PLAYING_REGULAR, Attempt, DailyPuzzle, Mined, Puzzle, Solver

logger = logging.getLogger(__name__)

PROOF_BUDGET = KEEP_BUDGET  # positions the search may visit to prove a move lost the win
NEAREST = 12  # the next puzzle is drawn from this many untried ones nearest the player's rating


class Refused(Exception):
    """A move the rules refuse, or one on an attempt that is over: ``reason`` is the engine's."""

    def __init__(self, reason: engine.Refusal, attempt: Attempt):
        super().__init__(reason.value)
        self.reason = reason
        self.attempt = attempt


class Stale(Exception):
    """The page was drawn from another version of the attempt than the one stored."""

    def __init__(self, attempt: Attempt):
        super().__init__("stale page")
        self.attempt = attempt


def puzzle_keep(found: Found, *, from_game: bool = False) -> bool:
    """Keep one found puzzle; False when its position of its variant is kept already."""
    _puzzle, made = Puzzle.objects.get_or_create(
        variant=found.variant,
        position=found.position,
        defaults={
            "deal_number": found.deal_number,
            "step": found.step,
            "line": " ".join(found.line),
            "nodes": found.nodes,
            "first_moves": found.first_moves,
            "keepers": found.keepers,
            "decisions": found.decisions,
            "to_settle": found.to_settle,
            "grade": found.difficulty,
            "from_game": from_game,
        },
    )
    return made


def puzzles_first(target: int, *, most_deals: int = 10_000) -> int:
    """Search random fresh deals of the default variant until the site keeps ``target`` puzzles,
    at most ``most_deals`` of them: a new site's first puzzles.  Returns the puzzles kept."""
    kept = 0
    for _ in range(most_deals):
        if Puzzle.objects.count() >= target:
            break
        kept += puzzles_build([secrets.randbelow(engine.DRAWN_DEALS) + 1], engine.DEFAULT_VARIANT.key)[1]
    return kept


def puzzles_build(deal_numbers: Iterable[int], variant: str) -> tuple[int, int]:
    """Search each of ``deal_numbers`` for a puzzle and keep those found: (found, newly kept)."""
    found = kept = 0
    for number in deal_numbers:
        puzzle = from_deal(number, variant)
        if puzzle is not None:
            found += 1
            kept += puzzle_keep(puzzle)
    return found, kept


def puzzle_next(owner: Owner, *, today: date | None = None) -> Puzzle | None:
    """A puzzle ``owner`` has not tried, at their level: drawn from the ``NEAREST`` untried
    puzzles whose ratings are nearest theirs (today's puzzle is the day's, not drawn); None when
    they have tried them all."""
    today = today or timezone.now().date()
    daily_puzzle(today)  # chosen first, so that the draw never offers the puzzle about to be the day's
    rating = selectors.rating_of(owner).rating
    untried = Puzzle.objects.exclude(pk__in=Attempt.objects.filter(owner.owns()).values("puzzle_id")).exclude(
        days__day=today
    )
    above = list(untried.filter(rating__gte=rating).order_by("rating", "pk")[:NEAREST])
    below = list(untried.filter(rating__lt=rating).order_by("-rating", "-pk")[:NEAREST])
    nearest = sorted(above + below, key=lambda puzzle: abs(puzzle.rating - rating))[:NEAREST]
    return random.choice(nearest) if nearest else None  # noqa: S311  (which puzzle comes next is no secret)


def daily_puzzle(day: date) -> Puzzle | None:
    """The puzzle of ``day``, the same for everyone: kept once chosen; chosen the first time it is
    asked for, among the puzzles never a day's, by the day alone (so two servers choosing at once
    choose the same).  None while there is no puzzle at all."""
    kept = DailyPuzzle.objects.filter(day=day).select_related("puzzle").first()
    if kept is not None:
        return kept.puzzle
    choices = list(Puzzle.objects.filter(days__isnull=True).order_by("pk").values_list("pk", flat=True))
    if not choices:  # every puzzle was a day's once: any, again
        choices = list(Puzzle.objects.order_by("pk").values_list("pk", flat=True))
        if not choices:
            return None
    chosen = Puzzle.objects.get(pk=random.Random(day.toordinal()).choice(choices))  # noqa: S311  (public once chosen)
    try:
        with transaction.atomic():
            DailyPuzzle.objects.create(day=day, puzzle=chosen)
    except IntegrityError:  # another request chose it first: theirs stands
        return DailyPuzzle.objects.select_related("puzzle").get(day=day).puzzle
    return chosen


def attempt_start(owner: Owner, puzzle: Puzzle, *, daily: date | None = None) -> Attempt:
    """``owner``'s attempt at ``puzzle``: the one in progress, or a new one from its position.
    A day's puzzle is played once a day: asked again, it is the attempt made (finished or not);
    an attempt at it under way as a regular puzzle becomes the day's.  The first attempt at a
    puzzle is rated; another is played for itself.  Two starts at once make one attempt: the
    database holds one a day and one regular puzzle at a time (puzzles/models.py), and the
    start that loses gets the one made."""
    attempts = Attempt.objects.filter(owner.owns(), puzzle=puzzle)
    if daily:
        current = attempts.filter(daily=daily).first()
        if current is None and attempts.filter(status=Attempt.Status.PLAYING, daily=None).update(daily=daily):
            current = attempts.filter(daily=daily).first()
    else:
        current = attempts.filter(status=Attempt.Status.PLAYING, daily=None).first()
    if current is not None:
        return current
    stamp = owner.stamp()
    try:
        with transaction.atomic():
            return Attempt.objects.create(
                puzzle=puzzle,
                owner_id=stamp["owner_id"],
                guest_token=stamp["guest_token"],
                position=puzzle.position,
                rated=not attempts.exists(),
                daily=daily,
            )
    except IntegrityError:  # another start got there first: its attempt stands
        mine = Attempt.objects.filter(owner.owns())
        return (mine.filter(daily=daily) if daily else mine.filter(status=Attempt.Status.PLAYING, daily=None)).get()


def attempt_state(attempt: Attempt) -> engine.GameState:
    """The engine's view of an attempt: its position, with no shuffle left (a puzzle is won
    without one), and its status."""
    position = engine.Position.parse(attempt.position, attempt.puzzle.variant)
    status = {Attempt.Status.PLAYING: engine.Status.PLAYING, Attempt.Status.SOLVED: engine.Status.WON}.get(
        Attempt.Status(attempt.status), engine.Status.LOST
    )
    return engine.GameState(
        position, seed=0, moves=attempt.moves, shuffles_used=position.variant.shuffles, status=status
    )


def kept_instead(puzzle: Puzzle, played: list[str], before: engine.Position) -> str:
    """A move that keeps the win at ``before``, where ``played`` (the moves so far) left it: the
    puzzle's own line's next move while the player followed it, else the first the search wins
    from (one exists: the move before kept the win, or the puzzle's position has it)."""
    line = puzzle.line.split()
    if played == line[: len(played)] and len(played) < len(line):
        return line[len(played)]
    for move in before.legal_moves():
        if solver.solve(before.play(move), PROOF_BUDGET).won:
            return str(move)
    return ""


def attempt_move(
    *, owner: Owner, attempt_id: int, version: int, slot: engine.Slot, to: engine.Slot | None = None
) -> Attempt:
    """Play one move of ``owner``'s attempt: the position won is a solve; a move after which the
    search proves no win is left ends the attempt failed, with the move that kept it.  Raises
    ``Attempt.DoesNotExist`` for an attempt not the owner's, :class:`Stale` and :class:`Refused`."""
    attempts = Attempt.objects.filter(owner.owns(), pk=attempt_id)
    attempt = attempts.select_related("puzzle").get()
    if attempt.version != version:
        raise Stale(attempt)
    state = attempt_state(attempt)
    try:
        after, move = state.act(engine.ActionKind.MOVE, slot=slot, to=to)
    except engine.IllegalAction as refusal:
        raise Refused(refusal.reason, attempt) from refusal
    played = attempt.played.split()
    changed = {
        "position": str(after.position),
        "played": " ".join([*played, str(move)]),
        "moves": attempt.moves + 1,
        "version": version + 1,
    }
    if after.status is engine.Status.WON:
        changed["status"] = Attempt.Status.SOLVED
    elif build.settled(after.position):  # every line wins from here: the rest plays itself
        finish = solver.solve(after.position, PROOF_BUDGET)
        finished = after.position
        for rest in finish.line if finish.won else ():
            finished = finished.play(rest)
        changed.update(status=Attempt.Status.SOLVED, position=str(finished), rest=len(finish.line) if finish.won else 0)
    else:
        proof = solver.solve(after.position, PROOF_BUDGET)
        if proof.proved_lost:
            changed.update(
                status=Attempt.Status.FAILED,
                slip=str(move),
                kept=kept_instead(attempt.puzzle, played, state.position),
                proof_nodes=proof.nodes,
            )
    now = timezone.now()
    if changed.get("status"):
        changed["finished_at"] = now
    with transaction.atomic():
        if not attempts.filter(version=version).update(**changed):
            raise Stale(attempts.get())
        for field, value in changed.items():
            setattr(attempt, field, value)
        if attempt.is_over:
            _rate(attempt)
    return attempt


def attempt_give_up(*, owner: Owner, attempt_id: int, version: int) -> Attempt:
    """End ``owner``'s attempt unsolved, with the move that keeps the win from where it stands."""
    attempt = Attempt.objects.filter(owner.owns(), pk=attempt_id).select_related("puzzle").get()
    if attempt.version != version:
        raise Stale(attempt)
    if attempt.is_over:
        raise Refused(engine.Refusal.GAME_OVER, attempt)
    return _give_up(attempt)


def _give_up(attempt: Attempt) -> Attempt:
    state = attempt_state(attempt)
    changed = {
        "status": Attempt.Status.FAILED,
        "kept": kept_instead(attempt.puzzle, attempt.played.split(), state.position),
        "version": attempt.version + 1,
        "finished_at": timezone.now(),
    }
    with transaction.atomic():
        if not Attempt.objects.filter(pk=attempt.pk, version=attempt.version).update(**changed):
            raise Stale(Attempt.objects.select_related("puzzle").get(pk=attempt.pk))
        for field, value in changed.items():
            setattr(attempt, field, value)
        _rate(attempt)
    return attempt


def puzzles_left_unfinished(*, now: datetime, dry_run: bool = False) -> int:
    """The housekeeping's chore: a day's puzzle left unfinished when its UTC day ended counts as
    not solved (docs/RULES.md, "Puzzles"), so that nobody keeps a rating by leaving a hard one
    open; how many were (or would be) ended."""
    left = Attempt.objects.filter(status=Attempt.Status.PLAYING, daily__lt=now.date()).select_related("puzzle")
    if dry_run:
        return left.count()
    ended = 0
    for attempt in left.order_by("pk")[:500]:
        try:
            _give_up(attempt)
            ended += 1
        except Stale:  # its player moved meanwhile: the next run sees it again
            continue
    return ended


def _rate(attempt: Attempt) -> None:
    """A rated attempt that ended moves the player's rating and the puzzle's, Glicko-2 with the
    attempt as a rating period of one game each way (as lichess rates puzzles); the player's
    counts go up either way.  Inside the attempt's transaction, the two rows locked."""
    solved = attempt.status == Attempt.Status.SOLVED
    if attempt.owner_id is not None:
        player, _made = Solver.objects.get_or_create(owner_id=attempt.owner_id)
    else:
        player, _made = Solver.objects.get_or_create(guest_token=attempt.guest_token)
    player = Solver.objects.select_for_update().get(pk=player.pk)
    counts = {"solved": F("solved") + 1} if solved else {"failed": F("failed") + 1}
    if not attempt.rated:
        Solver.objects.filter(pk=player.pk).update(**counts)
        return
    puzzle = Puzzle.objects.select_for_update().get(pk=attempt.puzzle_id)
    mine = glicko.Rating(player.rating, player.deviation, player.volatility)
    theirs = glicko.Rating(puzzle.rating, puzzle.deviation, puzzle.volatility)
    mine_after = glicko.rate(mine, [glicko.Result(theirs, 1.0 if solved else 0.0)])
    theirs_after = glicko.rate(theirs, [glicko.Result(mine, 0.0 if solved else 1.0)])
    Solver.objects.filter(pk=player.pk).update(**mine_after._asdict(), **counts)
    Puzzle.objects.filter(pk=puzzle.pk).update(**theirs_after._asdict())
    Attempt.objects.filter(pk=attempt.pk).update(rating_after=mine_after.rating)
    attempt.rating_after = mine_after.rating


def puzzles_claim(*, user, guest_token: str) -> int:
    """A guest who signs up or logs in keeps their puzzle history: their attempts become the
    account's, and their rating too when the account has none yet.  An account with a rating of
    its own keeps it, adds the guest's solved and failed counts, and its chart leaves out the
    guest's ratings (another rating's course); an attempt at a day the account played already,
    or a second regular puzzle under way, stays the guest's.  Returns the attempts claimed."""
    if not guest_token:
        return 0
    with transaction.atomic():
        guests = Attempt.objects.filter(guest_token=guest_token)
        days = list(Attempt.objects.filter(owner=user, daily__isnull=False).values_list("daily", flat=True))
        movable = guests.exclude(daily__in=days)
        if Attempt.objects.filter(Q(owner=user) & PLAYING_REGULAR).exists():
            movable = movable.exclude(PLAYING_REGULAR)
        own = Solver.objects.filter(owner=user).first()
        guest = Solver.objects.filter(guest_token=guest_token).first()
        if own is not None:
            movable.filter(rated=True).update(rating_after=None)
            if guest is not None:
                Solver.objects.filter(pk=own.pk).update(
                    solved=F("solved") + guest.solved, failed=F("failed") + guest.failed
                )
                guest.delete()
        elif guest is not None:
            Solver.objects.filter(pk=guest.pk).update(owner=user, guest_token="")
        # One rated attempt a puzzle, whoever made it: an attempt under way at a puzzle the other
        # side tried too is played for itself from now on.
        theirs = Attempt.objects.filter(owner=user)
        movable.filter(status=Attempt.Status.PLAYING, puzzle_id__in=theirs.values("puzzle_id")).update(rated=False)
        theirs.filter(status=Attempt.Status.PLAYING, puzzle_id__in=movable.values("puzzle_id")).update(rated=False)
        claimed = movable.update(owner=user, guest_token="")
    return claimed


MINE_BATCH = 40  # finished games one task of the worker reads at most


def puzzles_of_game(game: Game) -> list[Found]:
    """The puzzles a finished game's analysis gives: the position before each slip (where a win
    without another shuffle existed and the player's move lost it), when a choice matters there
    and the search's line from it is a puzzle's length (puzzles/build.py)."""
    analysis = game_analysis(game)
    kept = kept_replay(game)
    if analysis is None or kept is None or kept.error:
        return []
    found = []
    for stretch in analysis.stretches:
        slip = stretch.get("slip")
        if not slip or stretch.get("verdict") != "won" or slip > kept.last:
            continue
        position = engine.Position.parse(kept.rows[slip - 1][1], game.variant)
        puzzle = build.from_position(position, game.deal_number, slip - 1)
        if puzzle is not None:
            found.append(puzzle)
    return found


def puzzles_mine(*, limit: int = MINE_BATCH, now: datetime | None = None) -> tuple[int, int]:
    """Read up to ``limit`` finished games (:func:`puzzles.selectors.minable_games`) for puzzles, keep those found,
    and mark each game read, so that no game is read twice: (games read, puzzles newly kept)."""
    read = kept = 0
    for game in selectors.minable_games(now)[:limit]:
        if not game.seed_shown:  # the rule itself, row by row (the query says it for a column)
            continue
        try:
            found = puzzles_of_game(game)
        except (ValueError, IndexError, KeyError):  # a log or an analysis that does not read: read, nothing found
            logger.exception("puzzles: game %s could not be read", game.pk)
            found = []
        with transaction.atomic():
            _mined, made = Mined.objects.get_or_create(game=game, defaults={"found": len(found)})
            if made:  # another worker read it meanwhile: what it kept stands
                kept += sum(puzzle_keep(puzzle, from_game=True) for puzzle in found)
        read += 1
    return read, kept
