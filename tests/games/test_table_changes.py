"""An action the game page sends (answer=changes) gets only what changed: the slots whose
drawing changed and the parts of the status bar an action redraws, swapped in out of
band, and the figures of the grid and the counters in an event (views.table_changes).
Applied to the table the page showed, they give exactly the table the server would draw
now."""

from __future__ import annotations

import json
import random

import pytest

from games import engine
from games.models import Game
from games.presenters.table import table_facts, table_slots
from games.services import hint_for
from tests.helpers import (
    HTMX,
    ONE_MOVE_FROM_WIN,
    a_movable_slot,
    grid,
    grid_form_fields,
    parse_html,
    set_layout,
    without_clock,
)

pytestmark = pytest.mark.django_db


def table_now(client, game: Game):
    """The whole table as htmx reloads it now."""
    response = client.get(f"/game/{game.pk}/", headers=HTMX)
    assert response.status_code == 200
    return grid(response)


def act_for_changes(client, game: Game, kind: str, **fields):
    """POST an action as the game page's grid form does, with the fields the page holds now
    (answer=changes, and what its table was drawn with)."""
    data = {**grid_form_fields(client.get(f"/game/{game.pk}/")), **fields}
    return client.post(f"/game/{game.pk}/{kind}/", data, headers=HTMX)


def applied(board, response):
    """``board`` (a page's table) once the changes answer ``response`` is applied as htmx and
    the page's scripts (figures.js, table.js) apply it: each out-of-band slot in place of the
    slot of its id, the figures of the event on the grid.  Returns the changed slots' names too."""
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"  # the grid stays
    event = json.loads(response["HX-Trigger-After-Swap"])["table-changed"]
    figures = {f"data-{name}": value for name, value in event["grid"].items()}
    changed = parse_html(response).find_all("button", hx_swap_oob=True)
    names = []
    for button in changed:
        name = button["data-slot"]
        assert button["hx-swap-oob"] == f"outerHTML:#grid [data-slot='{name}']"
        names.append(name)
        cell = board.slots[name]
        cell.card, cell.label = button.get("data-card", ""), button.get("aria-label", "")
        cell.classes = button.classes
        cell.disabled = button.get("aria-disabled") == "true"
    for name, value in figures.items():
        if value == "":
            board.attrs.pop(name, None)
        else:
            board.attrs[name] = str(value)
    return board, names


def drawing(element) -> tuple[list, str]:
    """An element as drawn: its elements' tags and attributes (but the out-of-band marker,
    and the CSRF fields that only whole pages have) and its text."""
    shapes = [
        (e.tag, {k: v for k, v in e.attrs.items() if k != "hx-swap-oob"})
        for e in [element, *element.iter()]
        if e.get("name") != "csrfmiddlewaretoken"
    ]
    return shapes, element.text


def same_status(client, game: Game, response) -> None:
    """The changes answer ``response`` brings the status bar a reload draws now: its redrawn
    parts (the note, the actions, and what the action did), each out of band by its id, and
    the counters' figures in its event."""
    answer = parse_html(response)
    assert not answer.find_all(id="status")  # the status bar stays, and so do its counters
    # The game page as a reload draws it, whose actions are drawn afresh, not taken from the cache.
    now = parse_html(client.get(f"/game/{game.pk}/")).find(id="status")
    for name in ("note", "actions"):
        part = answer.find(id=name)
        assert part["hx-swap-oob"] == "true"
        assert drawing(part) == drawing(now.find(id=name)), name
    said = answer.find(id="said")  # what this action did: a reload has no action to say
    assert said["hx-swap-oob"] == "true" and said.text and "hidden" in said.attrs
    event = json.loads(response["HX-Trigger-After-Swap"])["table-changed"]
    assert str(event["grid"]["moves"]) == now.find(id="moves-count").text
    assert str(event["grid"]["shuffles-left"]) == now.find(id="shuffles-left-count").text
    clock = now.find(id="clock")
    assert event["grid"]["elapsed-ms"] <= int(clock["data-elapsed-ms"])  # time moves on
    assert 0 <= event["tick-ms-left"] and int(clock["data-tick-ms-left"]) >= 0


def same_table(one, other) -> None:
    assert without_clock(one.attrs) == without_clock(other.attrs)
    assert one.slots == other.slots


def test_a_move_sends_only_the_slots_that_changed_and_they_make_the_table_of_now(client, game):
    before = table_now(client, game)
    src = a_movable_slot(game)
    response = act_for_changes(client, game, "move", slot=f"{src[0]}-{src[1]}")
    board, names = applied(before, response)
    same_table(board, table_now(client, game))
    same_status(client, game, response)
    assert f"{src[0]}-{src[1]}" in names  # the card left its slot
    assert 2 <= len(names) < 13, names
    whole = client.get(f"/game/{game.pk}/", headers=HTMX)
    assert len(response.content) < len(whole.content) / 4  # about 2 KB of HTML against 15
    assert not parse_html(response).find_all(id="grid")  # the grid stays in the page


def test_undo_redo_and_shuffle_send_changes_that_make_the_table_of_now(client, game):
    board = table_now(client, game)
    for kind, fields in (
        ("move", {"slot": "{}-{}".format(*a_movable_slot(game))}),
        ("undo", {}),
        ("redo", {}),
        ("shuffle", {}),
    ):
        response = act_for_changes(client, game, kind, **fields)
        board, _names = applied(board, response)
        same_table(board, table_now(client, game))
        same_status(client, game, response)
    assert board.shuffles_left == 2 and board.version == 4


def test_a_hint_shown_before_a_move_goes_with_it(client, game):
    hint_for(owner=game_owner(game), game_id=game.pk, version=game.version)
    before = table_now(client, game)
    assert "data-hint" in before.attrs
    src, dst = Game.objects.get(pk=game.pk).hint.split(">")
    response = act_for_changes(client, game, "move", slot=src, to=dst)
    board, names = applied(before, response)
    same_table(board, table_now(client, game))
    assert "data-hint" not in board.attrs and src in names and dst in names


def test_the_move_that_ends_the_game_gets_the_whole_table(client, game):
    set_layout(game, ONE_MOVE_FROM_WIN)
    response = act_for_changes(client, game, "move", slot="0-12")
    assert response.status_code == 200 and not response.has_header("HX-Reswap")
    assert grid(response).status == "won"


@pytest.mark.parametrize("version_offset, status", [(-1, 409), (5, 409)])
def test_a_stale_page_gets_the_whole_table_as_before(client, game, version_offset, status):
    act_for_changes(client, game, "move", slot="{}-{}".format(*a_movable_slot(game)))
    response = client.post(
        f"/game/{game.pk}/move/",
        {
            **grid_form_fields(client.get(f"/game/{game.pk}/")),
            "version": Game.objects.get(pk=game.pk).version + version_offset,
            "slot": "0-0",
        },
        headers=HTMX,
    )
    assert response.status_code == status and not response.has_header("HX-Reswap")
    same_table(grid(response), table_now(client, game))


def test_a_refused_move_gets_the_whole_table_with_its_note(client, game):
    stuck = next(
        f"{r}-{c}"
        for r in range(4)
        for c in range(13)
        if (r, c) not in {m.src for m in game.state().position.legal_moves()} and game.state().position.rows()[r][c]
    )
    response = act_for_changes(client, game, "move", slot=stuck)
    assert response.status_code == 422 and not response.has_header("HX-Reswap")
    assert grid(response).version == game.version


def test_without_answer_changes_an_action_gets_the_whole_table(client, game):
    src = a_movable_slot(game)
    response = client.post(
        f"/game/{game.pk}/move/", {"version": game.version, "slot": f"{src[0]}-{src[1]}"}, headers=HTMX
    )
    assert not response.has_header("HX-Reswap")
    same_table(grid(response), table_now(client, game))


def test_the_game_page_asks_for_changes(client, game):
    form = parse_html(client.get(f"/game/{game.pk}/")).find(id="grid")
    assert form.find("input", name="answer")["value"] == "changes"


def test_the_grid_form_says_what_its_table_was_drawn_with(client, game):
    assert grid_form_fields(client.get(f"/game/{game.pk}/"))["drawn"] == "en marked"
    client.cookies["django_language"] = "it"
    client.cookies["addiction_mark_movable"] = "0"
    assert grid_form_fields(client.get(f"/game/{game.pk}/"))["drawn"] == "it plain"


@pytest.mark.parametrize(
    "cookie, value, now", [("django_language", "nl", "nl marked"), ("addiction_mark_movable", "0", "en plain")]
)
def test_a_page_drawn_before_another_tab_changed_its_language_or_marking_gets_the_whole_table(
    client, game, cookie, value, now
):
    """Another tab chose another language or turned the marking off: this page's next action
    gets the whole table, drawn as now, not a few slots drawn unlike the rest."""
    fields = grid_form_fields(client.get(f"/game/{game.pk}/"))  # drawn "en marked"
    client.cookies[cookie] = value
    src = a_movable_slot(game)
    response = client.post(f"/game/{game.pk}/move/", {**fields, "slot": f"{src[0]}-{src[1]}"}, headers=HTMX)
    assert response.status_code == 200 and not response.has_header("HX-Reswap")
    assert grid_form_fields(response)["drawn"] == now
    same_table(grid(response), table_now(client, game))
    assert ("mark-movable" in grid(response).attrs["class"].split()) == now.endswith("marked")


def game_owner(game: Game):
    from addiction_site.ownership import Owner

    return Owner(user_id=None, guest_token=game.guest_token)


def test_the_slots_found_changed_are_exactly_those_drawn_otherwise():
    """``TableFacts.changed_from`` finds the changed slots without drawing the tables: over
    random play (moves, shuffles, hints shown and gone, the game's end), exactly the slots
    whose drawing differs."""
    rng = random.Random(9)
    pairs = 0
    for deal in range(1, 40):
        state, hint = engine.GameState.start(deal_number=deal, seed=deal), None
        while not state.is_over:
            moves = state.position.legal_moves()
            if moves and rng.random() < 0.9:
                move = rng.choice(moves)
                after = state.act(engine.ActionKind.MOVE, move=move)[0]
            else:
                after = state.act(engine.ActionKind.SHUFFLE if state.shuffles_left else engine.ActionKind.RESIGN)[0]
            next_moves = [] if after.is_over else after.position.legal_moves()
            next_hint = rng.choice([None] + [engine.Hint.of(m) for m in next_moves[:2]])
            drawn = [
                now
                for row_now, row_was in zip(
                    table_slots(after, hint=next_hint), table_slots(state, hint=hint), strict=True
                )
                for now, was in zip(row_now, row_was, strict=True)
                if now != was
            ]
            assert table_facts(after, hint=next_hint).changed_from(table_facts(state, hint=hint)) == drawn
            state, hint, pairs = after, next_hint, pairs + 1
    assert pairs > 500


def test_the_actions_go_only_when_they_differ_from_those_the_page_shows(client, game):
    """The page posts the key of the actions it shows (actions_shown, a field of the grid's form
    kept in #actions): the first move makes Undo possible and sends them; the second changes
    nothing there and leaves them out; a page that shows others (a stale key) gets them."""
    first = act_for_changes(client, game, "move", slot="%d-%d" % a_movable_slot(game))
    actions = parse_html(first).find(id="actions")
    assert "disabled" not in actions.find(id="undo-button").attrs
    page_key = parse_html(client.get(f"/game/{game.pk}/")).find("input", name="actions_shown")["value"]
    assert actions.find("input", name="actions_shown")["value"] == page_key
    second = act_for_changes(client, game, "move", slot="%d-%d" % a_movable_slot(game))
    assert second["HX-Reswap"] == "none" and not parse_html(second).find_all(id="actions")
    assert parse_html(second).find_all(id="note")  # the rest of the status bar still comes
    stale = act_for_changes(client, game, "move", slot="%d-%d" % a_movable_slot(game), actions_shown="0" * 12)
    assert parse_html(stale).find_all(id="actions")


def test_the_grid_names_the_move_undo_takes_back(client, game):
    """data-undo (docs/TABLE.md) is the move the next undo takes back, after every kind of
    action, in the changes answer's figures as in a reload: the page draws that undo at once."""

    def named(response=None):
        if response is not None:
            return json.loads(response["HX-Trigger-After-Swap"])["table-changed"]["grid"].get("undo", "")
        return table_now(client, game).attrs.get("data-undo", "")

    assert named() == ""  # nothing to take back yet
    played = []
    for _ in range(3):
        move = Game.objects.get(pk=game.pk).state().position.legal_moves()[0]
        response = act_for_changes(client, game, "move", slot="{}-{}".format(*move.src), to="{}-{}".format(*move.dst))
        played.append(str(move))
        assert named(response) == named() == played[-1]
    for taken in reversed(played):
        before = Game.objects.get(pk=game.pk).state().position
        response = act_for_changes(client, game, "undo")
        card, path = taken.split(":")
        src, dst = (engine.parse_slot(slot) for slot in path.split(">"))
        after = Game.objects.get(pk=game.pk).state().position
        # the named move went back
        assert (before.card_at(dst), after.card_at(src), after.card_at(dst)) == (card, card, None)
        expected = played[played.index(taken) - 1] if played.index(taken) else ""
        assert named(response) == named() == expected  # the next one down, read from the log
    response = act_for_changes(client, game, "redo")
    assert named(response) == named() == played[0]
    response = act_for_changes(client, game, "shuffle")
    assert named(response) == named() == ""  # a shuffle cannot be undone, nor anything before it
