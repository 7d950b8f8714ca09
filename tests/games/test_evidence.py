"""The evidence on a win, weighed from its facts (games/evidence.py; docs/RULES.md, "Review
before the top"): the patient scripts of issue 42 score far from a person, a person's uneven
play with pauses does not."""

from __future__ import annotations

import random

import pytest

from games import evidence
from games.evidence import Sign

MOVES = 96


def log_of(gaps, *, shuffles_after=()) -> list[tuple[str, int]]:
    """A log of moves ``gaps`` ms apart, a shuffle (1 s after the move before) after each move
    number in ``shuffles_after``."""
    log, clock = [], 0
    for number, gap in enumerate(gaps, start=1):
        clock += gap
        log.append(("move", clock))
        if number in shuffles_after:
            clock += 1000
            log.append(("shuffle", clock))
    return log


def facts(gaps, *, shuffles_after=(), **more) -> evidence.Facts:
    play = evidence.play_facts(
        log_of(gaps, shuffles_after=shuffles_after),
        shuffles_used=len(shuffles_after),
        move_kind="move",
        shuffle_kind="shuffle",
    )
    return evidence.Facts(**{**play, **more})


def person_gaps(count: int, seed: int = 1) -> list[int]:
    """A person's pace: a long read of the table first, gaps skewed around a second, and a
    pause to think every few moves."""
    rng = random.Random(seed)
    gaps = [int(rng.lognormvariate(6.9, 0.45)) for _ in range(count)]  # median near 1 s
    gaps[0] = 6000
    for number in range(7, count, rng.randint(6, 10)):
        gaps[number] = rng.randint(2500, 9000)
    return gaps


def test_a_script_at_the_pace_floor_has_every_sign_of_its_play():
    weighed = evidence.weigh(facts([400] * MOVES, shuffles_after=(30, 60), games_before=20, solver_share=1.0))
    assert set(weighed.signs) == {Sign.LONG_RUN, Sign.UNREAD_TABLES, Sign.EVEN_PACE, Sign.UNDER_MODEL, Sign.SOLVER_LINE}
    assert weighed.far_from_a_person and not weighed.clears


def test_a_script_with_jittered_gaps_is_still_too_even_and_too_fast():
    rng = random.Random(7)
    gaps = [rng.randint(450, 700) for _ in range(MOVES)]
    found = facts(gaps, shuffles_after=(40,), games_before=20)
    weighed = evidence.weigh(found)
    assert found.spread < evidence.EVEN_SPREAD
    assert {Sign.LONG_RUN, Sign.EVEN_PACE, Sign.UNDER_MODEL} <= set(weighed.signs)
    assert weighed.far_from_a_person


def test_a_persons_uneven_pace_with_pauses_clears_for_a_player_with_a_history():
    found = facts(person_gaps(MOVES), shuffles_after=(35, 70), games_before=evidence.HISTORY_GAMES, solver_share=0.1)
    weighed = evidence.weigh(found)
    assert weighed.signs == ()
    assert weighed.clears
    assert found.stretches == 3 and found.longest_run < evidence.LONG_RUN and found.spread > evidence.EVEN_SPREAD


def test_without_a_history_even_a_persons_play_does_not_clear():
    weighed = evidence.weigh(facts(person_gaps(MOVES), shuffles_after=(35,), games_before=evidence.HISTORY_GAMES - 1))
    assert weighed.signs == (Sign.NEW_PLAYER,)
    assert not weighed.far_from_a_person and not weighed.clears


def test_a_person_playing_the_solvers_line_from_the_deal_is_far_enough_to_be_looked_at():
    weighed = evidence.weigh(facts(person_gaps(MOVES), games_before=50, solver_share=0.95))
    assert set(weighed.signs) == {Sign.SOLVER_LINE, Sign.OPENING_WON}
    assert weighed.far_from_a_person


@pytest.mark.parametrize(
    ("more", "sign"),
    [
        ({"draws_given_up": 4, "guests_claimed": 1}, Sign.REDRAWS),
        ({"address_accounts": evidence.CROWDED_ACCOUNTS}, Sign.CROWDED_ADDRESS),
        ({"address_guests": evidence.CROWDED_GUESTS}, Sign.CROWDED_ADDRESS),
    ],
)
def test_the_players_record_and_their_address_add_their_signs(more, sign):
    base = {"games_before": 50}
    weighed = evidence.weigh(facts(person_gaps(MOVES), shuffles_after=(35,), **base, **more))
    assert weighed.signs == (sign,)


def test_the_model_time_is_a_key_sequence_a_move_and_a_read_for_each_table():
    found = facts([1000] * 10, shuffles_after=(5,))
    assert found.model_ms == 10 * evidence.MOVE_MS + 2 * evidence.THINK_MS
    assert evidence.MOVE_MS == 564  # 4.7 keys of 120 ms: faster than pointing and clicking (1.3 s)


def test_the_solver_share_counts_moves_while_they_follow_each_stretchs_line():
    played = [["a", "b", "c", "x"], ["d", "e"]]
    lines = [["a", "b", "c", "d"], ["z"]]
    assert evidence.solver_share(played, lines) == round(3 / 6, 3)
    assert evidence.solver_share([], []) == 0.0


def test_pauses_and_runs_are_read_from_the_gaps_before_moves_only():
    log = [("move", 2000), ("undo", 2100), ("move", 2200), ("shuffle", 9000), ("move", 9100), ("move", 11000)]
    found = evidence.play_facts(log, shuffles_used=1, move_kind="move", shuffle_kind="shuffle")
    assert found["moves"] == 4 and found["stretches"] == 2
    assert found["pauses"] == 2  # 2000 before the first move, 1900 before the last
    assert found["stretches_read"] == 1  # the deal was read; the shuffle's table was not (100 ms)
    assert found["longest_run"] == 2
