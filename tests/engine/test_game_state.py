"""What GameState counts: moves, undo, shuffles, and the end of the game (RULES.md)."""

import pytest

from games.engine import GameState, IllegalAction, IllegalMove, Move, Position, Status, deal, shuffle_seed
from tests.engine.layouts import won_with

# Deal 1 (pinned in test_deals_and_shuffles.py) and its four legal moves, read off the layout:
#   row 0: 7H 9S 4H 8D 8H 5C JH 6H 9C JS 5H KH 3S
#   row 1: 2H JD 5D 7D 4D 2S -- 6C KS KD TD TC JC     gap (1,6) after 2S takes 3S
#   row 2: TH 8C QS 4C 6S 7S -- 5S -- KC 6D QC QD     gap (2,6) after 7S takes 8S, (2,8) after 5S takes 6S
#   row 3: QH 9H 3H 3C -- 4S 2D 8S TS 3D 2C 9D 7C     gap (3,4) after 3C takes 4C
DEAL_1_3S = Move("3S", (0, 12), (1, 6))
DEAL_1_8S = Move("8S", (3, 7), (2, 6))
DEAL_1_6S = Move("6S", (2, 4), (2, 8))
DEAL_1_4C = Move("4C", (2, 3), (3, 4))

# row 0: 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS -- KS      KS wins the game
NEAR_WON = won_with(((0, 11), (0, 12)))

# row 0: 2S 3S 4S 5S 6S -- 8S 9S TS JS QS KH 7S
# row 1: 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KS --
# the one move, 7S into (0,5), leaves every gap right of a King: stuck.
ONE_MOVE_FROM_STUCK = won_with(((0, 11), (1, 11)), ((0, 5), (0, 12)))
INTO_THE_STUCK = Move("7S", (0, 12), (0, 5))

# row 0: 2S ... QS KH --
# row 1: 2H ... QH KS --
# stuck; only (0,11) (0,12) (1,11) (1,12) (2,12) (3,12) are unlocked, so a shuffle puts
# KS and KH into two of those six slots: sometimes won, sometimes stuck again, mostly not.
KINGS_SWAPPED = won_with(((0, 11), (1, 11)))


def start(deal_number=1, seed=42):
    return GameState.start(deal_number=deal_number, seed=seed)


def test_a_new_game():
    g = start(1, 42)
    assert g.position == deal(1)
    assert (g.deal_number, g.seed, g.moves, g.shuffles_used, g.shuffles_left) == (1, 42, 0, 0, 3)
    assert g.history == ()
    assert g.status is Status.PLAYING
    assert not g.resigned and not g.is_over and not g.can_undo


def test_deal_1_has_the_moves_read_off_its_layout():
    assert deal(1).legal_moves() == [DEAL_1_3S, DEAL_1_8S, DEAL_1_6S, DEAL_1_4C]


@pytest.mark.parametrize("number", [0, -5, 2**63, "7"])
def test_start_refuses_a_bad_deal_number(number):
    with pytest.raises(ValueError):
        GameState.start(deal_number=number, seed=1)


# --------------------------------------------------------------------------- moves and undo

def test_every_card_moved_counts_one():
    g = start()
    g1 = g.play(DEAL_1_3S)
    g2 = g1.play(DEAL_1_8S)
    assert (g.moves, g1.moves, g2.moves) == (0, 1, 2)
    assert g2.position == deal(1).play(DEAL_1_3S).play(DEAL_1_8S)
    assert g2.history == (DEAL_1_3S, DEAL_1_8S)
    assert g.position == deal(1) and g.history == ()  # the old state is untouched


def test_every_undo_counts_one_and_the_counter_never_goes_down():
    g = start()
    counts = [g.moves]
    for action in ("play 3S", "play 8S", "undo", "undo", "play 6S", "undo", "play 4C"):
        if action == "undo":
            g = g.undo()
        else:
            g = g.play({"3S": DEAL_1_3S, "8S": DEAL_1_8S, "6S": DEAL_1_6S, "4C": DEAL_1_4C}[action[-2:]])
        counts.append(g.moves)
    assert counts == [0, 1, 2, 3, 4, 5, 6, 7]
    assert g.position == deal(1).play(DEAL_1_4C)
    assert g.history == (DEAL_1_4C,)


def test_undo_restores_each_earlier_position():
    g = start()
    states = [g]
    for move in (DEAL_1_3S, DEAL_1_8S, DEAL_1_6S):
        g = g.play(move)
        states.append(g)
    for earlier in reversed(states[:-1]):
        g = g.undo()
        assert g.position == earlier.position
        assert g.history == earlier.history
    assert g.moves == 6
    assert not g.can_undo


def test_undo_a_move_that_is_not_legal_backwards():
    # 4C goes into (3,4) after 3C; taking it back puts it at (2,3) after QS, which is not a legal move.
    g = start().play(DEAL_1_4C)
    assert not g.position.is_legal(Move("4C", (3, 4), (2, 3)))
    assert g.undo().position == deal(1)


def test_an_illegal_move_is_refused_and_not_counted():
    g = start()
    with pytest.raises(IllegalMove, match="does not follow"):
        g.play(Move("9S", (0, 1), (1, 6)))
    with pytest.raises(IllegalAction):
        g.play(Move("3S", (0, 11), (1, 6)))
    assert g.moves == 0 and g.position == deal(1)


def test_undo_with_nothing_to_undo_is_refused():
    with pytest.raises(IllegalAction, match="nothing to undo"):
        start().undo()
    with pytest.raises(IllegalAction, match="nothing to undo"):
        start().play(DEAL_1_3S).undo().undo()


def _shuffled_position_with_a_move(game_seed_candidates=range(100)):
    """A game seed whose first shuffle of deal 1 after 3S and 8S leaves a legal move."""
    before = deal(1).play(DEAL_1_3S).play(DEAL_1_8S)
    for seed in game_seed_candidates:
        if before.shuffle(shuffle_seed(seed, 0)).legal_moves():
            return seed
    pytest.fail("no seed gives a shuffle with a legal move")


def test_undo_goes_back_to_the_last_shuffle_only():
    seed = _shuffled_position_with_a_move()
    g = start(1, seed).play(DEAL_1_3S).play(DEAL_1_8S)
    g = g.shuffle()
    assert g.history == () and not g.can_undo
    after_shuffle = g.position
    assert after_shuffle == deal(1).play(DEAL_1_3S).play(DEAL_1_8S).shuffle(shuffle_seed(seed, 0))

    g = g.play(after_shuffle.legal_moves()[0])
    assert g.can_undo
    g = g.undo()
    assert g.position == after_shuffle
    with pytest.raises(IllegalAction, match="nothing to undo"):
        g.undo()
    assert (g.moves, g.shuffles_used) == (4, 1)


def test_a_shuffle_is_not_a_move_and_cannot_be_undone():
    g = start().play(DEAL_1_3S).shuffle()
    assert (g.moves, g.shuffles_used, g.shuffles_left) == (1, 1, 2)
    with pytest.raises(IllegalAction):
        g.undo()


# --------------------------------------------------------------------------- shuffles

@pytest.mark.parametrize("seed", [0, 42, 2**64 - 1, 123456789012345678901234567890])
def test_shuffles_use_the_games_seed_with_index_0_1_2(seed):
    g = start(7, seed)
    expected = deal(7)
    for index in range(3):
        if g.is_over:  # a shuffle may end the game (stuck with none left, or won)
            break
        g = g.shuffle()
        expected = expected.shuffle(shuffle_seed(seed, index))
        assert g.position == expected
        assert g.shuffles_used == index + 1
        assert g.shuffles_left == 2 - index
    assert g.moves == 0


def test_moves_between_shuffles_and_the_shuffle_index():
    seed = _shuffled_position_with_a_move()
    g = start(1, seed).play(DEAL_1_3S).play(DEAL_1_8S).shuffle()
    move = g.position.legal_moves()[0]
    g = g.play(move).shuffle()
    expected = (
        deal(1).play(DEAL_1_3S).play(DEAL_1_8S).shuffle(shuffle_seed(seed, 0)).play(move).shuffle(shuffle_seed(seed, 1))
    )
    assert g.position == expected


def test_a_player_may_shuffle_when_not_stuck():
    g = start()
    assert not g.position.is_stuck()
    assert g.shuffle().shuffles_used == 1


def _seed_whose_shuffles_keep_playing(deal_number=1):
    for seed in range(200):
        g = start(deal_number, seed)
        for _ in range(3):
            g = g.shuffle()
            if g.is_over:
                break
        else:
            return seed, g
    pytest.fail("every seed ended the game by a shuffle")


def test_a_fourth_shuffle_is_refused():
    _, g = _seed_whose_shuffles_keep_playing()
    assert g.status is Status.PLAYING and g.shuffles_used == 3 and g.shuffles_left == 0
    with pytest.raises(IllegalAction, match="no shuffle left"):
        g.shuffle()


# --------------------------------------------------------------------------- the end of the game

def test_a_win_ends_the_game_won():
    g = GameState(NEAR_WON, seed=5)
    assert g.status is Status.PLAYING
    g = g.play(Move("KS", (0, 12), (0, 11)))
    assert g.position.is_won()
    assert g.status is Status.WON and g.is_over and not g.resigned
    assert g.moves == 1
    assert not g.can_undo


@pytest.mark.parametrize("shuffles_used", [0, 1, 2, 3])
def test_a_win_ends_the_game_whatever_shuffles_are_left(shuffles_used):
    g = GameState(NEAR_WON, seed=5, shuffles_used=shuffles_used).play(Move("KS", (0, 12), (0, 11)))
    assert g.status is Status.WON


def test_stuck_with_no_shuffle_left_ends_the_game_lost():
    g = GameState(ONE_MOVE_FROM_STUCK, seed=5, shuffles_used=3)
    assert g.position.legal_moves() == [INTO_THE_STUCK]
    g = g.play(INTO_THE_STUCK)
    assert g.position.is_stuck() and not g.position.is_won()
    assert g.status is Status.LOST and g.is_over
    assert not g.resigned
    assert g.moves == 1


@pytest.mark.parametrize("shuffles_used", [0, 1, 2])
def test_stuck_with_a_shuffle_left_goes_on(shuffles_used):
    g = GameState(ONE_MOVE_FROM_STUCK, seed=5, shuffles_used=shuffles_used).play(INTO_THE_STUCK)
    assert g.position.is_stuck()
    assert g.status is Status.PLAYING
    assert g.can_undo  # the player may also take the move back
    g = g.shuffle()
    assert g.shuffles_used == shuffles_used + 1
    assert g.position == KINGS_SWAPPED.shuffle(shuffle_seed(5, shuffles_used))


def _seed_for_last_shuffle(want):
    """A game seed whose third shuffle (index 2) of KINGS_SWAPPED gives the wanted kind of position."""
    for seed in range(5000):
        after = KINGS_SWAPPED.shuffle(shuffle_seed(seed, 2))
        kind = "won" if after.is_won() else "stuck" if after.is_stuck() else "playable"
        if kind == want:
            return seed, after
    pytest.fail(f"no seed gives a {want} position")


@pytest.mark.parametrize(
    "want, status",
    [("stuck", Status.LOST), ("won", Status.WON), ("playable", Status.PLAYING)],
)
def test_the_last_shuffle_may_end_the_game(want, status):
    seed, after = _seed_for_last_shuffle(want)
    g = GameState(KINGS_SWAPPED, seed=seed, shuffles_used=2).shuffle()
    assert g.position == after
    assert g.status is status
    assert g.shuffles_left == 0


def test_an_earlier_shuffle_into_a_stuck_position_does_not_end_the_game():
    for seed in range(5000):
        after = KINGS_SWAPPED.shuffle(shuffle_seed(seed, 1))
        if after.is_stuck() and not after.is_won():
            g = GameState(KINGS_SWAPPED, seed=seed, shuffles_used=1).shuffle()
            assert g.position == after and g.status is Status.PLAYING
            return
    pytest.fail("no seed gives a stuck position")


def test_resign_counts_as_lost():
    g = start().play(DEAL_1_3S).resign()
    assert g.status is Status.LOST and g.resigned and g.is_over
    assert g.moves == 1
    assert g.position == deal(1).play(DEAL_1_3S)


def test_resign_at_the_very_start():
    g = start().resign()
    assert (g.status, g.resigned, g.moves) == (Status.LOST, True, 0)


def _won():
    return GameState(NEAR_WON, seed=5).play(Move("KS", (0, 12), (0, 11)))


def _lost_by_being_stuck():
    return GameState(ONE_MOVE_FROM_STUCK, seed=5, shuffles_used=3).play(INTO_THE_STUCK)


def _resigned():
    return start().play(DEAL_1_3S).resign()


@pytest.mark.parametrize("finished", [_won, _lost_by_being_stuck, _resigned], ids=["won", "lost", "resigned"])
@pytest.mark.parametrize(
    "action",
    [
        lambda g: g.play(g.position.legal_moves()[0] if g.position.legal_moves() else Move("2S", (0, 0), (0, 12))),
        lambda g: g.undo(),
        lambda g: g.shuffle(),
        lambda g: g.resign(),
    ],
    ids=["play", "undo", "shuffle", "resign"],
)
def test_a_finished_game_refuses_every_action(finished, action):
    g = finished()
    assert g.is_over
    with pytest.raises(IllegalAction, match="over"):
        action(g)


def test_a_resigned_game_with_a_legal_move_still_refuses_it():
    g = _resigned()
    assert g.position.legal_moves()
    with pytest.raises(IllegalAction, match="over"):
        g.play(g.position.legal_moves()[0])


def test_game_state_is_an_immutable_value():
    g = start()
    with pytest.raises(AttributeError):
        g.moves = 5
    assert g == start() and hash(g) == hash(start())
    assert isinstance(g.position, Position)
