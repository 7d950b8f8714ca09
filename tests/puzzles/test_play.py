"""Playing a puzzle (docs/RULES.md, "Puzzles"): the next one at the player's level, its table
played move by move as a game's, a solve, a slip that ends the attempt with the reason and the
move that kept the win, the ratings each way, the day's puzzle, a guest's history kept on signing
up, the result to share, and bad input answered cleanly."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from addiction_site.ownership import Owner
from games import engine, solver
from games.snapshot import table_png
from puzzles import services
from puzzles.build import from_deal
from puzzles.models import Attempt, DailyPuzzle, Puzzle, Solver
from tests.accounts.test_accounts import PASSWORD, signup
from tests.helpers import parse_html, text_of

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(scope="module")
def found():
    """Deal 9's puzzle: two decisions (the first of two legal moves, one a slip), then every line wins."""
    puzzle = from_deal(9)
    assert puzzle is not None
    return puzzle


@pytest.fixture
def puzzle(found) -> Puzzle:
    """Deal 9's puzzle, kept, and another (deal 3's) as today's, so that the draw offers deal 9's."""
    services.puzzle_keep(found)
    services.puzzle_keep(from_deal(3))
    kept = Puzzle.objects.get(position=found.position)
    DailyPuzzle.objects.create(day=timezone.now().date(), puzzle=Puzzle.objects.exclude(pk=kept.pk).get())
    return kept


def start(client: Client) -> Attempt:
    response = client.post("/puzzles/next/")
    assert response.status_code == 302, response.status_code
    return Attempt.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def move(client: Client, attempt: Attempt, text: str, version: int | None = None, **extra):
    played = engine.Move.parse(text, attempt.cols)
    data = {
        "version": attempt.version if version is None else version,
        "slot": engine.slot_name(played.src),
        "to": engine.slot_name(played.dst),
    }
    return client.post(f"/puzzles/{attempt.pk}/move/", data, **HTMX, **extra)


def slip_of(puzzle: Puzzle) -> str:
    position = engine.Position.parse(puzzle.position, puzzle.variant)
    return next(str(m) for m in position.legal_moves() if solver.solve(position.play(m)).proved_lost)


def test_a_puzzles_line_played_on_its_page_solves_it_and_moves_both_ratings(client, puzzle, found):
    attempt = start(client)
    assert attempt.puzzle == puzzle and attempt.rated and attempt.position == puzzle.position
    page = client.get(f"/puzzles/{attempt.pk}/")
    grid = parse_html(page).find(id="grid")
    assert grid["action"] == f"/puzzles/{attempt.pk}/move/" and grid["data-status"] == "playing"
    status = parse_html(page).find(id="status").text
    assert "Shuffle" not in status and "Undo" not in status and "Hint" not in status  # none in a puzzle
    for text in puzzle.line.split():
        response = move(client, attempt, text)
        assert response.status_code == 200, text_of(response)
        attempt.refresh_from_db()
        if attempt.is_over:  # once every line wins, the rest plays itself
            break
    assert attempt.status == Attempt.Status.SOLVED and attempt.moves == found.to_settle
    assert attempt.rest == len(puzzle.line.split()) - found.to_settle
    assert engine.Position.parse(attempt.position).is_won()  # the table as won
    assert parse_html(response).find(id="grid")["data-status"] == "won"
    assert f"Solved, in {found.to_settle} moves." in text_of(response)
    player, puzzle_after = Solver.objects.get(), Puzzle.objects.get(pk=puzzle.pk)
    assert player.rating > 1500 and player.deviation < 350 and player.solved == 1
    assert puzzle_after.rating < 1500 and attempt.rating_after == pytest.approx(player.rating)
    share = parse_html(response).find(id="share-text").text
    assert f"solved in {found.to_settle} moves" in share and "✅ " + "🟩" * found.to_settle + " " in share
    assert not any(card in share for card in puzzle.position.split() if len(card) == 2)  # no card of the table


def test_a_move_that_loses_the_win_ends_the_attempt_with_why_and_the_move_that_kept_it(client, puzzle):
    attempt = start(client)
    response = move(client, attempt, slip_of(puzzle))
    assert response.status_code == 200
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.FAILED and attempt.slip == slip_of(puzzle)
    assert attempt.kept == puzzle.line.split()[0] and attempt.proof_nodes > 0
    words = text_of(response)
    assert "lost the win" in words and "the search tried every line from there" in words
    assert "The move that kept the win:" in words
    assert parse_html(response).find(id="grid")["data-status"] == "lost"
    share = parse_html(response).find(id="share-text").text
    assert "not solved, 1 move" in share and "❌ 🟥 " in share
    assert Solver.objects.get().rating < 1500 and Puzzle.objects.get(pk=puzzle.pk).rating > 1500
    # Over: another move is refused, and nothing changes.
    again = move(client, attempt, puzzle.line.split()[0])
    assert again.status_code == 422
    attempt.refresh_from_db()
    assert attempt.moves == 1


def test_the_move_that_kept_the_win_is_the_lines_next_or_else_one_the_search_wins_from(puzzle):
    position = engine.Position.parse(puzzle.position)
    line = puzzle.line.split()
    assert services.kept_instead(puzzle, [], position) == line[0]
    off_line = services.kept_instead(puzzle, ["2C:0-1>0-2"], position)  # played otherwise than the line
    assert off_line and solver.solve(position.play(engine.Move.parse(off_line))).won


def test_giving_up_fails_the_attempt_and_shows_the_move_that_keeps_the_win(client, puzzle):
    attempt = start(client)
    response = client.post(f"/puzzles/{attempt.pk}/give-up/", {"version": 0}, **HTMX)
    assert response.status_code == 200
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.FAILED and attempt.kept == puzzle.line.split()[0] and not attempt.slip
    assert Solver.objects.get().failed == 1


def test_a_second_attempt_at_a_puzzle_is_not_rated(client, puzzle):
    first = start(client)
    client.post(f"/puzzles/{first.pk}/give-up/", {"version": 0})
    rating = Solver.objects.get().rating
    second = services.attempt_start(services_owner(client), puzzle)
    assert second.pk != first.pk and not second.rated
    for text in puzzle.line.split():
        second.refresh_from_db()
        move(client, second, text)
    second.refresh_from_db()
    assert second.status == Attempt.Status.SOLVED and second.rating_after is None
    assert Solver.objects.get().rating == rating and Solver.objects.get().solved == 1
    assert "does not change the ratings" in text_of(client.get(f"/puzzles/{second.pk}/"))


def services_owner(client: Client):
    attempt = Attempt.objects.filter(owner__isnull=True).exclude(guest_token="").first()
    return Owner(None, attempt.guest_token)


def test_bad_input_stale_pages_and_other_players_attempts_get_clean_answers(client, puzzle):
    attempt = start(client)
    first = move(client, attempt, puzzle.line.split()[0])
    assert first.status_code == 200
    stale = move(client, attempt, puzzle.line.split()[1], version=0)  # the page of before, or a double click
    assert stale.status_code == 409 and "out of date" in text_of(stale)
    assert client.post(f"/puzzles/{attempt.pk}/move/", {"version": "x", "slot": "1-1"}, **HTMX).status_code == 400
    assert client.post(f"/puzzles/{attempt.pk}/move/", {"version": 1, "slot": "9-99"}).status_code == 400
    gap = engine.Position.parse(Attempt.objects.get().position).gaps()[0]
    dead = client.post(f"/puzzles/{attempt.pk}/move/", {"version": 1, "slot": engine.slot_name(gap)}, **HTMX)
    assert dead.status_code in (200, 422)
    stranger = Client()
    assert stranger.get(f"/puzzles/{attempt.pk}/").status_code == 404
    assert move(stranger, attempt, puzzle.line.split()[1], version=1).status_code == 404
    assert client.get("/puzzles/999999/").status_code == 404
    attempt.refresh_from_db()
    assert attempt.moves == 1 + (dead.status_code == 200)


def test_the_next_puzzle_is_an_untried_one_nearest_the_players_rating(client, puzzle):
    far = Puzzle.objects.create(
        variant="addiction", deal_number=1, step=0, position="x", line="", nodes=1, first_moves=2, keepers=1, grade=1
    )
    Puzzle.objects.filter(pk=far.pk).update(rating=2600)
    owner = services_owner_of_new_guest()
    assert services.puzzle_next(owner) in (puzzle, far)
    Attempt.objects.create(puzzle=puzzle, guest_token=owner.guest_token, position=puzzle.position, status="failed")
    assert services.puzzle_next(owner) == far  # tried: not offered again
    Attempt.objects.create(puzzle=far, guest_token=owner.guest_token, position=far.position, status="failed")
    assert services.puzzle_next(owner) is None
    # With many, the draw stays near the rating.
    for number in range(40):
        made = Puzzle.objects.create(
            variant="addiction",
            deal_number=1,
            step=0,
            position=f"p{number}",
            line="",
            nodes=1,
            first_moves=2,
            keepers=1,
            grade=1,
        )
        Puzzle.objects.filter(pk=made.pk).update(rating=1000 + number * 25)
    drawn = {services.puzzle_next(owner).rating for _ in range(30)}
    assert all(abs(rating - 1500) <= 25 * services.NEAREST for rating in drawn)


def services_owner_of_new_guest():
    return Owner(None, "g" * 32)


def test_no_puzzle_left_says_so_on_the_lobby(client):
    response = client.post("/puzzles/next/", follow=True)
    assert "You have tried every puzzle here" in text_of(response)


def test_the_daily_puzzle_is_the_same_for_everyone_and_played_once_a_day(client, puzzle, found):
    other = from_deal(3)
    services.puzzle_keep(other)
    day = date(2026, 12, 6)
    chosen = services.daily_puzzle(day)
    assert chosen is not None and services.daily_puzzle(day) == chosen
    assert DailyPuzzle.objects.get(day=day).puzzle == chosen
    assert services.daily_puzzle(date(2026, 12, 7)) != chosen  # a new day, a puzzle never a day's yet
    response = client.post("/puzzles/daily/")
    mine = Attempt.objects.get()
    assert response.status_code == 302 and mine.daily is not None
    stranger = Client()
    stranger.post("/puzzles/daily/")
    theirs = Attempt.objects.exclude(pk=mine.pk).get()
    assert theirs.puzzle == mine.puzzle
    client.post(f"/puzzles/{mine.pk}/give-up/", {"version": 0})
    assert client.post("/puzzles/daily/")["Location"] == f"/puzzles/{mine.pk}/"  # once a day: the result again
    today_puzzle = services.daily_puzzle(timezone.now().date())
    assert all(services.puzzle_next(services_owner(client)) != today_puzzle for _ in range(10))
    lobby = text_of(client.get("/puzzles/"))
    assert "Today's puzzle: your result" in lobby


def test_signing_up_keeps_a_guests_puzzles_and_rating(client, puzzle):
    attempt = start(client)
    client.post(f"/puzzles/{attempt.pk}/give-up/", {"version": 0})
    rating = Solver.objects.get().rating
    assert signup(client, "ada").status_code == 302
    user = User.objects.get(username="ada")
    assert Attempt.objects.get().owner == user and Solver.objects.get().owner == user
    assert Solver.objects.get().rating == rating
    assert client.get(f"/puzzles/{attempt.pk}/").status_code == 200
    profile = parse_html(client.get("/players/ada/"))
    assert profile.find(id="puzzle-chart") is not None
    assert profile.find("dd", data_stat="puzzle-rating").text.startswith(str(round(rating)))


def test_the_puzzles_page_names_no_player_and_no_deal(client, puzzle):
    attempt = start(client)
    words = text_of(client.get(f"/puzzles/{attempt.pk}/"))
    assert f"#{puzzle.deal_number}" not in words.replace(f"#{puzzle.pk}", "")


def test_the_daily_deal_links_to_the_days_puzzle(client):
    for page in ("/daily/", "/"):
        link = parse_html(client.get(page)).find(id="daily-puzzle-link")
        assert link["href"] == "/puzzles/", page


def test_a_move_is_said_for_screen_readers(client, puzzle):
    attempt = start(client)
    response = move(client, attempt, puzzle.line.split()[0])
    said = parse_html(response).find(id="said").text
    played = engine.Move.parse(puzzle.line.split()[0])
    assert f" to row {played.dst[0] + 1}, column {played.dst[1] + 1}" in said
    assert "Solved" not in said  # the result is the note's, said once


def test_two_starts_at_once_make_one_attempt_and_a_days_puzzle_takes_over_one_under_way(client, puzzle):
    owner = services_owner_of_new_guest()
    first = services.attempt_start(owner, puzzle)
    other = Puzzle.objects.exclude(pk=puzzle.pk).get()
    assert services.attempt_start(owner, other) == first  # one regular puzzle at a time, even past the check
    assert Attempt.objects.count() == 1
    DailyPuzzle.objects.filter(day=timezone.now().date()).update(puzzle=puzzle)
    daily = services.attempt_start(owner, puzzle, daily=timezone.now().date())
    assert daily.pk == first.pk and daily.daily == timezone.now().date() and daily.rated
    assert services.attempt_start(owner, puzzle, daily=timezone.now().date()) == daily  # once a day


def test_a_days_puzzle_left_unfinished_counts_as_not_solved_after_its_day(client, puzzle):
    owner = services_owner_of_new_guest()
    yesterday = timezone.now().date() - timedelta(days=1)
    attempt = services.attempt_start(owner, puzzle, daily=yesterday)
    assert services.puzzles_left_unfinished(now=timezone.now(), dry_run=True) == 1
    assert services.puzzles_left_unfinished(now=timezone.now()) == 1
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.FAILED and attempt.kept == puzzle.line.split()[0]
    assert Solver.objects.get().failed == 1 and Solver.objects.get().rating < 1500
    assert services.puzzles_left_unfinished(now=timezone.now()) == 0


def an_account_that_gave_up(puzzle: Puzzle) -> tuple[User, Owner, float]:
    """Ada, who gave up ``puzzle`` (a rated attempt), as a user and an owner, with her rating."""
    ada = User.objects.create_user("ada", password=PASSWORD)
    account = Owner(ada.pk, "")
    tried = services.attempt_start(account, puzzle)
    services.attempt_give_up(owner=account, attempt_id=tried.pk, version=0)
    return ada, account, Solver.objects.get(owner=ada).rating


def test_an_account_with_a_rating_keeps_it_when_a_guests_puzzles_come(client, puzzle):
    ada, account, rating = an_account_that_gave_up(puzzle)
    guest = start(client)  # the guest plays the same puzzle and solves it
    for text in puzzle.line.split():
        guest.refresh_from_db()
        if guest.is_over:
            break
        move(client, guest, text)
    client.post("/puzzles/daily/")
    guest_day = Attempt.objects.filter(daily__isnull=False).get()
    services.attempt_start(account, guest_day.puzzle, daily=guest_day.daily)  # the account played that day too
    assert client.post("/accounts/login/", {"username": "ada", "password": PASSWORD}).status_code == 302
    ada_rating = Solver.objects.get(owner=ada)
    assert ada_rating.rating == rating and (ada_rating.solved, ada_rating.failed) == (1, 1)
    assert not Solver.objects.filter(owner__isnull=True).exists()
    guest.refresh_from_db()
    assert guest.owner == ada and guest.rating_after is None  # the guest's course is not the account's
    guest_day.refresh_from_db()
    assert guest_day.owner is None  # a day the account played already stays the guest's


def test_the_puzzles_keys_list_has_no_undo_shuffle_or_hint(client, puzzle):
    attempt = start(client)
    keys = parse_html(client.get(f"/puzzles/{attempt.pk}/")).find(id="keys-dialog").text
    assert "Play the card, or fill the gap" in keys
    assert "Undo" not in keys and "Shuffle" not in keys and "hint" not in keys.lower() and "Next puzzle" in keys
    game_keys = parse_html(client.get("/how-to-play/")).find("dl", class_="keys-list").text
    assert "Undo" in game_keys and "Hint" in game_keys


def test_looking_at_the_lobby_chooses_no_days_puzzle(client, found):
    services.puzzle_keep(found)
    page = parse_html(client.get("/puzzles/"))
    assert page.find(id="daily-puzzle") is not None and not DailyPuzzle.objects.exists()
    client.post("/puzzles/daily/")
    assert DailyPuzzle.objects.count() == 1


def test_a_claimed_attempt_at_a_puzzle_the_account_tried_moves_no_rating(client, puzzle):
    ada, account, rating = an_account_that_gave_up(puzzle)
    guest = start(client)  # the same puzzle, on another device, not finished
    assert guest.puzzle == puzzle and guest.rated
    assert client.post("/accounts/login/", {"username": "ada", "password": PASSWORD}).status_code == 302
    guest.refresh_from_db()
    assert guest.owner == ada and not guest.rated
    services.attempt_give_up(owner=account, attempt_id=guest.pk, version=guest.version)
    assert Solver.objects.get(owner=ada).rating == rating  # one rated attempt a puzzle


def test_a_shared_puzzle_link_previews_the_days_puzzle_once_chosen(client, puzzle):
    today = DailyPuzzle.objects.get(day=timezone.now().date()).puzzle
    meta = parse_html(client.get("/puzzles/")).find("meta", property="og:image")
    assert meta["content"] == f"http://testserver/puzzles/picture/{today.pk}.png"
    picture = client.get(f"/puzzles/picture/{today.pk}.png")
    position = engine.Position.parse(today.position)
    assert picture.status_code == 200 and picture.content == table_png(position.rows(), position.locked())
    assert client.get("/puzzles/picture/999999.png").status_code == 404
    DailyPuzzle.objects.all().delete()
    assert parse_html(client.get("/puzzles/")).find_all("meta", property="og:image") == []  # none chosen yet
