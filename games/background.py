"""The work done off the request path (docs/RULES.md, "Analysis" and "Hints"): a finished
game's analysis, and the search for a win from a stretch's start (the deal, a shuffle) or
from where a hint off every line leads.  games/tasks.py runs these functions in a worker;
nothing here runs in a request.

Each piece of work is one row (:class:`~games.models.Analysis`, :class:`~games.models.StretchSearch`),
queued when it is asked for and claimed by the worker that does it, with an UPDATE that only
one worker can win: asked twice, or retried after a worker died, it is still searched once.
The search itself runs outside any transaction (SQLite would otherwise hold its write lock
for seconds), and its result is written with a second UPDATE that only the claim's holder makes.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from addiction_site import metrics
from addiction_site.ownership import Owner
from games import engine, review, solver
from games.models import Analysis, Claimed, Game, KnownStep, StretchSearch
from games.replay import kept_replay
from games.selectors import owned_games

STALE = timedelta(minutes=15)
"""A claim older than this belongs to a worker that died: the work may be claimed again."""


def position_key(position: engine.Position) -> str:
    """The key a position is kept under: the SHA-256 of its notation."""
    return hashlib.sha256(str(position).encode()).hexdigest()


def queue_work(model, defaults: dict | None = None, **key) -> bool:
    """Make sure the work ``key`` names (a :class:`~games.models.BackgroundWork`) is queued, new
    with ``defaults``: True when it must be enqueued now (it is new, or its claim went stale),
    False when it is done or on its way."""
    _row, created = model.objects.get_or_create(defaults=defaults, **key)
    if created:
        return True
    return bool(
        model.objects.filter(_stale(timezone.now()), **key).update(state=Claimed.QUEUED, requested_at=timezone.now())
    )


def _stale(now) -> Q:
    """Work asked for or claimed longer than STALE ago and not done: its task was lost, or its worker died."""
    stale = now - STALE
    return Q(state=Claimed.QUEUED, requested_at__lt=stale) | Q(state=Claimed.RUNNING, claimed_at__lt=stale)


def stale_work(model, now) -> list:
    """The primary keys of ``model``'s stale work (:func:`_stale`): the housekeeping asks for
    each again, and :func:`queue_work` queues it anew."""
    return list(model.objects.filter(_stale(now)).values_list("pk", flat=True))


def claim_work(model, **key) -> bool:
    """Take the work on; only one worker's UPDATE matches."""
    now = timezone.now()
    return bool(
        model.objects.filter(**key)
        .filter(Q(state=Claimed.QUEUED) | Q(state=Claimed.RUNNING, claimed_at__lt=now - STALE))
        .update(state=Claimed.RUNNING, claimed_at=now)
    )


# --------------------------------------------------------------------------- analysis


def worth_analysing(game: Game) -> bool:
    """Whether a game that just ended has its analysis asked for at once (docs/RULES.md,
    "Analysis"): not a random deal given up without a move (nothing was played to judge, and
    drawing deals costs nothing), nor while its owner already has
    ``ADDICTION_MAX_PENDING_ANALYSES`` analyses waiting, so that one player's flood of games
    waits behind nobody else's, nor while ``ADDICTION_MAX_PENDING_ANALYSES_PER_ADDRESS`` of the
    games started from its address wait (guests are many to an address, addresses are not).
    Either can still be asked for later, by the game's button.
    A win is always analysed, the evidence on it reads the solver's lines (games/review.py), but
    not one a hint helped to: it is never ranked, and hints make wins cheap to flood with."""
    if _evidence_waits(game.status, game.assisted):
        return True
    if game.origin == Game.Origin.RANDOM and game.moves == 0:
        return False
    owner = Owner(user_id=game.owner_id, guest_token=game.guest_token)
    waiting = _waiting_analyses().filter(game__in=owned_games(owner).values("pk"))
    if waiting.count() >= settings.ADDICTION_MAX_PENDING_ANALYSES:
        return False
    if not game.address_key:
        return True
    from_there = _waiting_analyses().filter(game__address_key=game.address_key)
    return from_there.count() < settings.ADDICTION_MAX_PENDING_ANALYSES_PER_ADDRESS


def _evidence_waits(status: str, assisted: bool) -> bool:
    """Whether a finished game is a win whose evidence waits for its analysis (games/review.py):
    one no hint helped to, since a hinted win is never ranked."""
    return status == engine.Status.WON and not assisted


def _waiting_analyses():
    return Analysis.objects.exclude(state=Claimed.DONE)


PRIORITY_WIN = 50
"""A win's analysis first: its evidence, and perhaps its place near the top of a board, wait on it."""
PRIORITY_SEARCH = 20
"""Then the search behind a hint: its player is at the table, and asked for help."""
PRIORITY_PLAYED = 10
"""Then the analysis of a game with ``PLAYED_ACTIONS`` actions or more."""
PRIORITY_DEALT = 5
"""Then the search from a stretch's start (the deal, a shuffle), made before anyone asks for a
hint there, and perhaps for nobody: a busy worker serves hints and end screens first."""
PRIORITY_BRIEF = 0
"""Last, the analysis of a game with fewer (a deal tried and left), with the upkeep's own work."""
PRIORITY_CROWDED = -10
"""Below all of them, the work of an address that has work of the same kind waiting already:
one address's flood goes behind everyone else's, one piece at a time."""
PLAYED_ACTIONS = 20


def analysis_priority(game_id: int) -> int:
    """The priority of a game's analysis in the worker's queue (docs/RULES.md, "Analysis")."""
    found = Game.objects.filter(pk=game_id).values_list("status", "version", "address_key", "assisted").first()
    if found is None:
        return PRIORITY_BRIEF
    status, actions, address_key, assisted = found
    if _evidence_waits(status, assisted):
        return PRIORITY_WIN
    waiting = _waiting_analyses().exclude(game_id=game_id)
    if address_key and waiting.filter(game__address_key=address_key).exists():
        return PRIORITY_CROWDED
    return PRIORITY_PLAYED if actions >= PLAYED_ACTIONS else PRIORITY_BRIEF


def search_priority(position: engine.Position, asked_from: str, *, dealt: bool = False) -> int:
    """The priority of a search for a win: behind a hint, a player's first waiting one before
    played games' analyses; from a stretch's start (``dealt``), after them; any more from the
    same address and of the same kind after everything (docs/RULES.md, "Analysis")."""
    waiting = StretchSearch.objects.exclude(state=Claimed.DONE).exclude(position=position_key(position))
    if asked_from and waiting.filter(asked_from=asked_from, dealt=dealt).exists():
        return PRIORITY_CROWDED
    return PRIORITY_DEALT if dealt else PRIORITY_SEARCH


def analysis_queue(game_id: int) -> bool:
    """Ask for a finished game's analysis: True when a task must be enqueued for it."""
    return queue_work(Analysis, game_id=game_id)


def game_analyse(game_id: int) -> bool:
    """Analyse a finished game, once: each stretch between shuffles (docs/RULES.md, "Analysis"),
    and for a lost game its verdict, the last stretch's, kept with the game as before.
    Returns whether this call did the work."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not game.is_over or not claim_work(Analysis, game_id=game_id):
        return False
    with metrics.BACKGROUND_SECONDS.labels("analysis").time():
        stretches, fewest, nodes = analyse(game)
    metrics.BACKGROUND.labels("analysis", "done").inc()
    Analysis.objects.filter(game_id=game_id, state=Claimed.RUNNING).update(
        state=Claimed.DONE, finished_at=timezone.now(), stretches=stretches, fewest_moves=fewest, nodes=nodes
    )
    if game.status == engine.Status.WON:  # the solver's share of a win's moves, for its evidence
        review.solver_lines_found(game_id, stretches)
    if game.status == engine.Status.LOST and stretches:
        last = stretches[-1]
        Game.objects.filter(pk=game_id, verdict="").update(verdict=last["verdict"], verdict_line=last["line"])
        metrics.VERDICTS.labels(last["verdict"]).inc()
    return True


def analyse(game: Game) -> tuple[list[dict], int | None, int]:
    """The analysis of a finished game, as :class:`~games.models.Analysis` keeps it: one entry a
    stretch (its first and last replay steps, verdict, a winning line from its start, and the
    slip: the step after which no win was left, with a move that kept it), the fewest moves
    of a win found for a won game, and the positions searched."""
    kept = kept_replay(game)
    if kept is None or kept.error or not kept.rows:  # a log that does not replay has no analysis
        return [], None, 0
    rows = kept.rows
    starts = [i for i, row in enumerate(rows) if row[0] is None or row[0][1] == engine.ActionKind.SHUFFLE.value]
    won = game.status == engine.Status.WON
    stretches: list[dict] = []
    nodes, fewest, last_line, last_start = 0, None, [], 0
    for number, start in enumerate(starts):
        end = starts[number + 1] - 1 if number + 1 < len(starts) else kept.last
        positions = [engine.Position.parse(rows[i][1], game.variant) for i in range(start, end + 1)]
        last = number == len(starts) - 1
        # The opening (unless it was won) and a lost game's last stretch, whose verdict is the
        # game's, are worth more when the first search is not enough: the end screen says them.
        decisive = (number == 0 and not (won and last)) or (last and not won)
        found = solver.analyse_stretch(
            positions,
            won=won and last,
            budget=settings.ADDICTION_ANALYSIS_BUDGET,
            retry_budget=settings.ADDICTION_ANALYSIS_RETRY_BUDGET if decisive else 0,
            deep_budget=deep_budget() if decisive else 0,
        )
        nodes += found.nodes
        last_line, last_start = found.line, start
        slip = None if found.slip is None else min(start + found.slip, kept.last)
        stretches.append(
            {
                "start": start,
                "end": end,
                "shuffles_used": number,
                "verdict": found.verdict.value,
                "line": " ".join(str(move) for move in found.line),
                "decided": found.decided,
                "slip": slip,
                "played_kind": rows[slip][0][1] if slip else "",
                "played": rows[slip][0][2] if slip else "",
                "instead": str(found.instead) if found.instead else "",
            }
        )
    if won and last_line:  # the moves before the last stretch, and the line found from its start
        shortest = rows[last_start][2] + len(last_line)
        fewest = shortest if shortest < game.moves else None
    return stretches, fewest, nodes


# --------------------------------------------------------------------------- hints


def deep_budget() -> int:
    """Positions a background search for a win may visit: ``ADDICTION_DEEP_BUDGET``, else the
    solver's own for its core."""
    configured = settings.ADDICTION_DEEP_BUDGET
    return solver.DEEP_BUDGET if configured is None else configured


def request_search_budget() -> int:
    """Positions a hint's request may spend on that search: ``ADDICTION_REQUEST_SEARCH_BUDGET``,
    else the solver's own."""
    configured = settings.ADDICTION_REQUEST_SEARCH_BUDGET
    return solver.REQUEST_SEARCH_BUDGET if configured is None else configured


def known_hint(position: engine.Position) -> engine.Hint | None:
    """The hint at ``position`` if it is on a winning line a background search found."""
    move = KnownStep.objects.filter(position=position_key(position)).values_list("move", flat=True).first()
    return engine.Hint.parse(move, position.variant.cols) if move else None


def line_keep(position: engine.Position, line: list[engine.Move]) -> None:
    """Keep each position of a winning line from ``position`` with its next move (a
    :class:`~games.models.KnownStep`); a position already on a line keeps the line found first."""
    steps = []
    for left, move in enumerate(line):
        hint = str(engine.Hint.of(move))
        steps.append(KnownStep(position=position_key(position), move=hint, to_win=len(line) - left))
        position = position.play(move)
    KnownStep.objects.bulk_create(steps, ignore_conflicts=True)


def search_queue(position: engine.Position, asked_from: str = "", *, dealt: bool = False) -> bool:
    """Ask for the background search for a win from ``position``, for a game started from the
    address key ``asked_from``, at a stretch's start (``dealt``) or where a hint leads: True
    when a task must be enqueued.  Not while ``ADDICTION_MAX_PENDING_SEARCHES_PER_ADDRESS``
    searches of the same kind that address asked for wait: its hints then answer with what
    the request finds alone (docs/RULES.md, "Hints")."""
    key = position_key(position)
    if KnownStep.objects.filter(position=key).exists():
        return False
    if asked_from and not StretchSearch.objects.filter(position=key).exists():
        waiting = StretchSearch.objects.exclude(state=Claimed.DONE).filter(asked_from=asked_from, dealt=dealt)
        if waiting.count() >= settings.ADDICTION_MAX_PENDING_SEARCHES_PER_ADDRESS:
            return False
    return queue_work(StretchSearch, position=key, defaults={"asked_from": asked_from, "dealt": dealt})


def stretch_search(notation: str, variant: str = engine.DEFAULT_VARIANT.key) -> bool:
    """Search for an outright win from a position of ``variant`` (``solver.search_win``, once a
    position) and keep every position of a line found as a :class:`~games.models.KnownStep`.
    Returns whether this call did the work."""
    position = engine.Position.parse(notation, variant)
    key = position_key(position)
    if not claim_work(StretchSearch, position=key):
        return False
    with metrics.BACKGROUND_SECONDS.labels("search").time():
        found = solver.search_win(position, deep_budget())
    metrics.BACKGROUND.labels("search", "won" if found.won else "not_found").inc()
    line_keep(position, found.line if found.won else [])
    StretchSearch.objects.filter(position=key, state=Claimed.RUNNING).update(
        state=Claimed.DONE, finished_at=timezone.now(), found=found.won, nodes=found.nodes
    )
    return True
