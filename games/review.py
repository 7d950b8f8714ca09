"""The review before the top (docs/RULES.md, "Review before the top"): the evidence on every
win, gathered and weighed (games/evidence.py) and kept with it, and what it decides for a win
that would stand among the first places of a public board (the boards are another app's: it
says so through ``registry.near_top``).

When a game is won (games/services.py, ``game_rank``), its play, its player's history and its
address's other players are read at once: a win near the top whose evidence clears it (an
ordinary pace by a player with a history) ranks at once, any other waits, pending review,
for a moderator.  When its analysis has found the solver's lines (games/background.py, in the
worker), the solver's share of its moves is added and the evidence weighed again: a win that
was cleared and no longer is goes back to pending.  Weighing again writes over what was kept,
so it may run any number of times.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction

from games import engine, evidence, registry, signals
from games.models import Action, Evidence, Game
from games.replay import kept_replay

_FACT_NAMES = set(evidence.Facts.__dataclass_fields__)
DAY = timedelta(days=1)


def facts_of(game: Game, *, solver_share: float | None = None) -> evidence.Facts:
    """What the evidence reads of ``game`` (a win): its log, its player's history (an
    account's: a guest has none), and the other players from its address in the day before it
    ended.  ``solver_share`` is the analysis's; without it, the share kept before, if any."""
    log = Action.objects.filter(game_id=game.pk).order_by("number").values_list("kind", "elapsed_ms")
    found = evidence.play_facts(
        log.iterator(chunk_size=2000),
        shuffles_used=game.shuffles_used,
        move_kind=engine.ActionKind.MOVE.value,
        shuffle_kind=engine.ActionKind.SHUFFLE.value,
    )
    if solver_share is None:
        solver_share = Evidence.objects.filter(game_id=game.pk).values_list("solver_share", flat=True).first()
    found["solver_share"] = solver_share
    ended = game.finished_at or game.last_action_at
    if game.owner_id is not None:
        before = Game.objects.filter(owner_id=game.owner_id, version__gt=0, finished_at__lt=ended).exclude(
            status=engine.Status.PLAYING
        )
        found["games_before"] = before.count()
        found["wins_before"] = before.filter(status=engine.Status.WON).count()
        found.update(
            {name: value for name, value in registry.player_facts(game.owner_id).items() if name in _FACT_NAMES}
        )
    if game.address_key and ended is not None:
        that_day = Game.objects.filter(address_key=game.address_key, created_at__gt=ended - DAY, created_at__lte=ended)
        accounts = that_day.exclude(owner_id=None).exclude(owner_id=game.owner_id)
        guests = that_day.filter(owner_id=None).exclude(guest_token=game.guest_token)
        found["address_accounts"] = accounts.values("owner_id").distinct().count()
        found["address_guests"] = guests.values("guest_token").distinct().count()
    return evidence.Facts(**found)


def weigh(game: Game, *, solver_share: float | None = None) -> evidence.Weighed:
    """Weigh the evidence on ``game`` and keep it (written over if it was kept before)."""
    facts = facts_of(game, solver_share=solver_share)
    weighed = evidence.weigh(facts)
    Evidence.objects.update_or_create(
        game_id=game.pk,
        defaults={
            "score": weighed.score,
            "signs": [sign.key for sign in weighed.signs],
            "facts": facts.as_dict(),
            "solver_share": facts.solver_share,
        },
    )
    return weighed


def standing_at_win(game: Game, ranked: bool, review: str) -> tuple[bool, str]:
    """A true win's standing once its evidence is weighed (``ranked`` and ``review`` as
    ``win_standing`` found them): a win of an account that would enter the first places of a
    board, not reviewed yet, ranks at once when its evidence clears it, and waits pending
    review when it does not.  Every other win keeps its standing."""
    weighed = weigh(game)
    if not ranked or review != Game.Review.NONE or game.owner_id is None or not registry.near_top(game):
        return ranked, review
    if weighed.clears:
        return True, Game.Review.CLEARED
    return False, Game.Review.PENDING


def stretch_moves(game: Game, starts: list[int], ends: list[int]) -> list[list[str]]:
    """The moves played in each stretch of ``game`` (the replay's steps ``starts[i]`` to
    ``ends[i]``), in order, as the log writes them."""
    kept = kept_replay(game)
    if kept is None or not kept.rows:
        return []
    played = []
    for start, end in zip(starts, ends, strict=True):
        rows = kept.rows[start + 1 : end + 1]
        played.append([row[0][2] for row in rows if row[0] and row[0][1] == engine.ActionKind.MOVE.value])
    return played


def solver_lines_found(game_id: int, stretches: list[dict]) -> None:
    """The analysis of a win found the solver's line from each stretch's start: weigh its
    evidence again with the share of the moves on those lines, and send a win it cleared back
    to pending review when the evidence no longer clears it."""
    game = Game.objects.filter(pk=game_id, status=engine.Status.WON).first()
    if game is None or not stretches:
        return
    played = stretch_moves(game, [s["start"] for s in stretches], [s["end"] for s in stretches])
    share = evidence.solver_share(played, [s["line"].split() for s in stretches])
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        weighed = weigh(game, solver_share=share)
        if game.review == Game.Review.CLEARED and not weighed.clears:
            game.ranked, game.review = False, Game.Review.PENDING
            Game.objects.filter(pk=game.pk).update(ranked=False, review=game.review)
            if game.owner_id:
                signals.win_unranked.send(sender=Game, game=game)
