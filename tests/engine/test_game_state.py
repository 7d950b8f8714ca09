"""What GameState counts: moves, undo, shuffles, and the end of the game (docs/RULES.md);
and ``GameState.act``, the one entry point of live play, replay and verification."""

import pytest

from games.engine import (
    MAX_ACTIONS,
    ActionKind,
    GameState,
    IllegalAction,
    IllegalMove,
    Move,
    Position,
    Refusal,
    Status,
    deal,
    shuffle_seed,
)
from tests.engine.layouts import COLUMN_0_GAP, GAP_AFTER_GAP, KINGS_SWAPPED, NEAR_WON, ONE_FIT, won_except

# Deal 1 (pinned in test_deals_and_shuffles.py) and its four legal moves, read off the layout:
#   row 0: 7H 9S 4H 8D 8H 5C JH 6H 9C JS 5H KH 3S
#   row 1: 2H JD 5D 7D 4D 2S -- 6C KS KD TD TC JC     gap (1,6) after 2S takes 3S
#   row 2: TH 8C QS 4C 6S 7S -- 5S -- KC 6D QC QD     gap (2,6) after 7S takes 8S, (2,8) after 5S takes 6S
#   row 3: QH 9H 3H 3C -- 4S 2D 8S TS 3D 2C 9D 7C     gap (3,4) after 3C takes 4C
DEAL_1_3S = Move("3S", (0, 12), (1, 6))
DEAL_1_8S = Move("8S", (3, 7), (2, 6))
DEAL_1_6S = Move("6S", (2, 4), (2, 8))
DEAL_1_4C = Move("4C", (2, 3), (3, 4))

# The one move, 7S into (0,5), leaves every gap right of a King: stuck.
ONE_MOVE_FROM_STUCK = won_except(
    {0: "2S 3S 4S 5S 6S -- 8S 9S TS JS QS KH 7S", 1: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KS --"}
)
INTO_THE_STUCK = Move("7S", (0, 12), (0, 5))


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


@pytest.mark.parametrize("want, status", [("stuck", Status.LOST), ("won", Status.WON), ("playable", Status.PLAYING)])
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
    with pytest.raises(IllegalAction, match="over") as refused:
        action(g)
    assert refused.value.reason is Refusal.GAME_OVER


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


# --------------------------------------------------------------------------- act: any action, one entry point

# Every slot whose click does something on deal 1: the four cards that move, the four gaps they fill.
DEAL_1_CLICKS = [(r, c) for r in range(4) for c in range(13) if deal(1).move_for_slot((r, c))]


@pytest.mark.parametrize("slot", DEAL_1_CLICKS)
def test_a_move_by_its_slot_and_by_the_move_itself_give_the_same_state(slot):
    """Live play sends the slot clicked; a replay sends the move its log recorded."""
    g = start()
    move = g.position.move_for_slot(slot)
    assert g.act(ActionKind.MOVE, slot=slot) == g.act(ActionKind.MOVE, move=move) == (g.play(move), move)


def test_act_does_what_each_action_does_and_names_the_move_to_log():
    g = start().play(DEAL_1_3S)
    assert g.act(ActionKind.UNDO) == (g.undo(), DEAL_1_3S)
    assert g.act(ActionKind.SHUFFLE) == (g.shuffle(), None)
    assert g.act(ActionKind.RESIGN) == (g.resign(), None)
    assert g.act("undo") == g.act(ActionKind.UNDO)  # the kind as the log stores it


def test_an_undo_given_the_move_it_takes_back_takes_it_back():
    g = start().play(DEAL_1_3S).play(DEAL_1_8S)
    assert g.act(ActionKind.UNDO, move=DEAL_1_8S) == (g.undo(), DEAL_1_8S)


@pytest.mark.parametrize("logged", [DEAL_1_3S, DEAL_1_6S], ids=["an earlier move", "a move never played"])
def test_an_undo_given_another_move_is_refused_and_changes_nothing(logged):
    """A log whose undo names another move than the last one is false: replaying it stops there."""
    g = start().play(DEAL_1_3S).play(DEAL_1_8S)
    with pytest.raises(IllegalAction) as refused:
        g.act(ActionKind.UNDO, move=logged)
    assert refused.value.reason is Refusal.UNDO_MISMATCH
    assert g.history == (DEAL_1_3S, DEAL_1_8S)


@pytest.mark.parametrize("finished", [_won, _lost_by_being_stuck, _resigned], ids=["won", "lost", "resigned"])
@pytest.mark.parametrize("kind", list(ActionKind), ids=lambda kind: kind.value)
def test_act_on_a_finished_game_is_refused_as_game_over(finished, kind):
    g = finished()
    moves = g.position.legal_moves()
    where = {"slot": moves[0].src if moves else (0, 0)} if kind is ActionKind.MOVE else {}
    with pytest.raises(IllegalAction) as refused:
        g.act(kind, **where)
    assert refused.value.reason is Refusal.GAME_OVER


def test_a_move_needs_the_slot_clicked_or_the_move():
    """A caller's mistake, not a refusal by the rules: a plain ValueError, not IllegalAction."""
    with pytest.raises(ValueError) as mistake:
        start().act(ActionKind.MOVE)
    assert not isinstance(mistake.value, IllegalAction)


# --------------------------------------------------------------------------- every reason for a refusal


def _move(position: Position, move: Move):
    return lambda: GameState(position, seed=5).act(ActionKind.MOVE, move=move)


def _click(position: Position, slot):
    return lambda: GameState(position, seed=5).act(ActionKind.MOVE, slot=slot)


# Each reason, and an action in the situation it names, through act as live play and replay call it.
SITUATIONS = {
    Refusal.GAME_OVER: lambda: _won().act(ActionKind.SHUFFLE),
    Refusal.NOTHING_TO_UNDO: lambda: start().act(ActionKind.UNDO),
    Refusal.NO_SHUFFLE_LEFT: lambda: GameState(deal(1), seed=5, shuffles_used=3).act(ActionKind.SHUFFLE),
    Refusal.NOT_A_GAP: _move(ONE_FIT, Move("8S", (0, 6), (0, 7))),  # 9S is at 0-7
    Refusal.CARD_NOT_THERE: _move(ONE_FIT, Move("7S", (0, 11), (0, 5))),  # KS is at 0-11
    Refusal.ONLY_A_TWO: _move(COLUMN_0_GAP, Move("3H", (1, 1), (1, 0))),
    Refusal.RIGHT_OF_GAP: _move(GAP_AFTER_GAP, Move("7S", (2, 12), (0, 5))),
    Refusal.RIGHT_OF_KING: _move(ONE_FIT, Move("7S", (0, 12), (1, 12))),
    Refusal.DOES_NOT_FOLLOW: _move(ONE_FIT, Move("8S", (0, 6), (0, 5))),
    Refusal.NOTHING_FITS: _click(ONE_FIT, (1, 12)),  # a gap right of KH
    Refusal.CANNOT_MOVE: _click(ONE_FIT, (0, 0)),  # 2S, in place
    Refusal.UNDO_MISMATCH: lambda: start().play(DEAL_1_3S).act(ActionKind.UNDO, move=DEAL_1_8S),
    Refusal.NOTHING_TO_REDO: lambda: start().play(DEAL_1_3S).act(ActionKind.REDO),
    Refusal.REDO_MISMATCH: lambda: start().play(DEAL_1_3S).undo().act(ActionKind.REDO, move=DEAL_1_8S),
}


@pytest.mark.parametrize("reason", list(Refusal), ids=lambda reason: reason.name)
def test_each_reason_comes_from_the_situation_it_names(reason):
    """The site words a refusal by its reason alone (games/views.py), so each reason must come
    from its own situation and no other."""
    with pytest.raises(IllegalAction) as refused:
        SITUATIONS[reason]()
    assert refused.value.reason is reason
    assert str(refused.value)  # and says it in English for logs


# --------------------------------------------------------------------------- the most actions a game may have


def back_and_forth(g: GameState, actions: int) -> GameState:
    """``actions`` more actions on deal 1: 3S played and taken back, again and again."""
    for i in range(actions):
        g, _ = g.act(ActionKind.UNDO) if i % 2 else g.act(ActionKind.MOVE, move=DEAL_1_3S)
    return g


def test_the_action_that_reaches_the_limit_ends_the_game_as_lost():
    g = back_and_forth(start(), MAX_ACTIONS - 2)
    g, _ = g.act(ActionKind.SHUFFLE)  # a shuffle is an action too
    assert (g.actions, g.status, g.out_of_actions) == (MAX_ACTIONS - 1, Status.PLAYING, False)
    last = g.position.legal_moves()[0]
    g, _ = g.act(ActionKind.MOVE, move=last)
    assert (g.actions, g.status, g.resigned, g.out_of_actions) == (MAX_ACTIONS, Status.LOST, False, True)
    for kind in ActionKind:  # an action past the limit is refused: the game is over
        with pytest.raises(IllegalAction) as refused:
            g.act(kind, move=last if kind is ActionKind.MOVE else None)
        assert refused.value.reason is Refusal.GAME_OVER


def test_a_win_on_the_last_action_allowed_is_a_win():
    g = GameState(position=NEAR_WON, seed=1, deal_number=1, moves=MAX_ACTIONS - 1)
    g = g.play(g.position.legal_moves()[0])
    assert g.status is Status.WON and not g.out_of_actions


def test_giving_up_is_not_running_out_of_actions():
    g = back_and_forth(start(), 10).resign()
    assert g.status is Status.LOST and g.resigned and not g.out_of_actions


def test_a_move_may_name_its_gap_and_is_checked_like_any_other():
    g = start()
    g2, move = g.act(ActionKind.MOVE, slot=DEAL_1_3S.src, to=DEAL_1_3S.dst)
    assert move == DEAL_1_3S and g2.position == g.position.play(DEAL_1_3S)
    for slot, to, reason in [
        ((0, 12), (2, 6), Refusal.DOES_NOT_FOLLOW),
        ((1, 6), (2, 6), Refusal.CANNOT_MOVE),
        ((0, 12), (0, 0), Refusal.NOT_A_GAP),
    ]:
        with pytest.raises(IllegalAction) as refused:
            g.act(ActionKind.MOVE, slot=slot, to=to)
        assert refused.value.reason is reason, (slot, to)


# --------------------------------------------------------------------------- redo (docs/RULES.md, "Undo and redo")


def test_redo_plays_again_what_undo_took_back_and_counts_as_a_move():
    played = start().play(DEAL_1_3S)
    undone = played.undo()
    assert undone.can_redo and undone.undone == (DEAL_1_3S,)
    again, move = undone.act(ActionKind.REDO)
    assert move == DEAL_1_3S
    assert again.position == played.position and again.history == played.history
    assert (again.moves, again.can_redo) == (3, False)
    assert again.undo().position == undone.position  # what redo played, undo takes back again


def test_redo_goes_back_up_a_chain_of_undos_in_order():
    one = start().play(DEAL_1_3S)
    two = one.play(DEAL_1_8S) if DEAL_1_8S in one.position.legal_moves() else None
    if two is None:
        pytest.skip("deal 1's second move is not legal after the first")
    back = two.undo().undo()
    assert back.undone == (DEAL_1_8S, DEAL_1_3S)
    forward, first = back.act(ActionKind.REDO)
    forward, second = forward.act(ActionKind.REDO)
    assert (first, second) == (DEAL_1_3S, DEAL_1_8S) and forward.position == two.position


def test_a_new_move_or_a_shuffle_ends_what_redo_can_do():
    undone = start().play(DEAL_1_3S).undo()
    other = next(move for move in undone.position.legal_moves() if move != DEAL_1_3S)
    assert not undone.play(other).can_redo
    assert not undone.shuffle().can_redo
    with pytest.raises(IllegalAction) as refused:
        undone.play(other).act(ActionKind.REDO)
    assert refused.value.reason is Refusal.NOTHING_TO_REDO
