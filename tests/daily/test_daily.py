"""The daily deal (docs/RULES.md, "The daily deal"): its number, its shared seed, the
ranked first game and the practice ones, its page, calendar and streaks."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from daily import deals, services, tasks
from daily.models import DailySeed
from games import engine
from games.models import Game, daily_closes_at, daily_revealed
from games.services import game_start, games_claim, seed_digest
from records import selectors
from records.models import BoardEntry
from tests.helpers import account, act, act_on_service, grid, guest_token_of, logged_in, parse_html, text_of
from tests.winning import play_actions, play_win, quick_win, user_owner

SECOND = timedelta(seconds=1)
pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------- the clock


def test_the_daily_deal_number_comes_from_the_date_by_the_documented_formula():
    import hashlib

    day = date(2026, 12, 1)
    expected = int.from_bytes(hashlib.sha256(b"daily:2026-12-01").digest()[:8], "big") % 999_999_999 + 1
    assert deals.deal_number_of(day) == expected
    assert deals.deal_number_of(day + timedelta(days=1)) != expected


def test_two_players_share_the_days_deal_each_with_their_own_luck_and_only_the_first_daily_is_ranked():
    ada, bob = account("ada"), account("bob")
    today = deals.today()
    first = services.daily_start(owner=user_owner(ada), day=today)
    theirs = services.daily_start(owner=user_owner(bob), day=today)
    again = services.daily_start(owner=user_owner(ada), day=today)
    assert (first.origin, theirs.origin, again.origin) == ("daily", "daily", "practice")
    assert first.deal_number == theirs.deal_number == deals.deal_number_of(today)
    day_seed = DailySeed.objects.get(day=today).seed
    # Each ranked game's seed is made from the day's and its player's key (docs/RULES.md, "The daily deal").
    assert first.seed == deals.player_seed(day_seed, f"user:{ada.pk}")
    assert theirs.seed == deals.player_seed(day_seed, f"user:{bob.pk}")
    assert len({first.seed, theirs.seed, day_seed, again.seed}) == 4  # today's practice has a secret seed of its own
    # The same position shuffled with the same number of shuffles used deals differently for each.
    after = [
        act_on_service(owner, game, "shuffle").position
        for owner, game in ((user_owner(ada), first), (user_owner(bob), theirs))
    ]
    assert after[0] != after[1]
    assert act_on_service(user_owner(ada), again, "shuffle").position not in after
    # A past day's practice plays the player's own seed of that day, revealed since.
    yesterday = today - timedelta(days=1)
    past = services.daily_start(owner=user_owner(ada), day=yesterday)
    assert past.origin == "practice"
    assert past.seed == deals.player_seed(DailySeed.objects.get(day=yesterday).seed, f"user:{ada.pk}")


def test_the_daily_page_shows_the_seeds_digest_and_reveals_it_the_day_after(client):
    today = deals.today()
    before = text_of(client.get("/daily/"))
    assert not DailySeed.objects.exists()  # a page makes nothing (issue 41): the seed is drawn ahead, or at the start
    assert "its SHA-256 is shown here from then" in before
    assert services.seeds_made_ahead(now=timezone.now()) == 2  # today's and tomorrow's (the housekeeping)
    page = client.get("/daily/")
    seed = DailySeed.objects.get(day=today)
    assert seed.seed_sha256 in text_of(page) and seed.seed not in text_of(page)
    assert "will be revealed on" in text_of(page)
    assert services.seeds_made_ahead(now=timezone.now()) == 0
    yesterday = today - timedelta(days=1)
    if yesterday >= deals.FIRST_DAY:
        services.seed_of(yesterday)
        past = client.get(f"/daily/{yesterday.isoformat()}/")
        assert DailySeed.objects.get(day=yesterday).seed in text_of(past)
    assert client.get(f"/daily/{(today + timedelta(days=1)).isoformat()}/").status_code == 404
    assert client.get("/daily/2026-02-30/").status_code == 404
    assert client.get(f"/daily/{(deals.FIRST_DAY - timedelta(days=1)).isoformat()}/").status_code == 404


def test_a_finished_daily_hides_its_seed_until_the_day_is_over(client):
    response = client.post("/daily/start/")
    assert response.status_code == 302
    game = Game.objects.get(pk=int(response.url.strip("/").split("/")[-1]))
    assert game.origin == "daily" and game.daily == deals.today()
    act(client, game, "resign")
    page = text_of(client.get(f"/game/{game.pk}/"))
    assert game.seed not in page and "will be revealed on" in page
    verify = client.get(f"/game/{game.pk}/verify/")
    assert verify.status_code == 200 and game.seed not in text_of(verify)
    assert parse_html(verify).find(id="verdict")["data-ok"] == "pending"
    Game.objects.filter(pk=game.pk).update(daily=deals.today() - timedelta(days=1))  # as if the day had passed
    verify = client.get(f"/game/{game.pk}/verify/")
    assert game.seed in text_of(verify) and parse_html(verify).find(id="verdict")["data-ok"] == "true"


def test_a_past_daily_plays_as_practice_and_a_second_try_today_too(client):
    assert client.post("/daily/start/").status_code == 302
    assert client.post("/daily/start/").status_code == 302
    origins = list(Game.objects.order_by("pk").values_list("origin", flat=True))
    assert origins == ["daily", "practice"]
    text = text_of(client.get("/daily/"))
    assert "Ranked game" in text and "Practice" in text and "Play it for practice" in text


def test_the_page_offers_the_game_the_start_makes_after_a_ranked_game_is_deleted_unplayed(client):
    """The bug of issue 41: with the ranked game deleted unplayed and a practice game left, the
    page offered "the one ranked" while the start made a practice game.  One rule decides both
    (daily.selectors.next_is_ranked): the page says what the next start does."""
    assert client.post("/daily/start/").status_code == 302
    assert client.post("/daily/start/").status_code == 302
    ranked = Game.objects.get(origin="daily")
    assert client.post(f"/game/{ranked.pk}/delete/").status_code == 302
    assert not Game.objects.filter(pk=ranked.pk).exists()  # unplayed: no trace left
    page = text_of(client.get("/daily/"))
    client.post("/daily/start/")
    started = Game.objects.order_by("-pk").first()
    assert started.origin == "practice"  # a game of the day was played: practice from then on
    assert "Play it for practice" in page and "Play today's daily" not in page


def test_claiming_a_guests_daily_keeps_the_accounts_own_daily_ranked(client):
    ada = account("ada")
    today = deals.today()
    own = services.daily_start(owner=user_owner(ada), day=today)
    client.post("/daily/start/")
    guests = Game.objects.get(guest_token=guest_token_of(client))
    assert guests.origin == "daily"
    games_claim(user=ada, guest_token=guest_token_of(client))
    assert Game.objects.get(pk=own.pk).origin == "daily"
    assert Game.objects.get(pk=guests.pk).origin == "practice"


# --------------------------------------------------------------------------- what each board ranks


def test_the_daily_game_page_does_not_call_an_assisted_game_ranked(client):
    client.post("/daily/start/")
    game = Game.objects.get()
    assert "this game is ranked on the daily board" in text_of(client.get(f"/game/{game.pk}/"))
    Game.objects.filter(pk=game.pk).update(assisted=True)  # a hint was shown
    text = text_of(client.get(f"/game/{game.pk}/"))
    assert "a hint was shown, so this game is not ranked" in text and "this game is ranked" not in text


def test_a_daily_wins_replay_waits_for_its_seed_but_not_for_its_owner():
    """Every game of a day's daily shuffles alike from the same position: a replay on
    today's daily board would show others what their shuffles will deal."""
    ada = account("ada")
    today = deals.today()
    game = play_win(
        user_owner(ada), quick_win(), start=timezone.now() - 60 * SECOND, origin=Game.Origin.DAILY, daily=today
    )
    assert BoardEntry.objects.filter(game=game, scope=f"daily:{today.isoformat()}").exists()
    stranger, player = Client(), logged_in(ada)
    step = f"/game/{game.pk}/replay/1/"
    shown = grid(player.get(step))  # its player sees it at once
    assert shown.position != str(engine.deal(game.deal_number))
    for path in (f"/game/{game.pk}/replay/", step):
        waiting = stranger.get(path)
        assert waiting.status_code == 403
        assert "Its replay opens on" in text_of(waiting) and not parse_html(waiting).find_all(id="grid")
    assert stranger.get(step, headers={"HX-Request": "true"}).status_code == 403
    board = f"/daily/{today.isoformat()}/leaderboard/"
    row = parse_html(stranger.get(board)).find("tr", data_game=str(game.pk))
    assert not row.find_all("a", href=f"/game/{game.pk}/replay/") and "Replay from" in row.text
    Game.objects.filter(pk=game.pk).update(daily=today - timedelta(days=1))  # as if the day had passed
    assert grid(stranger.get(step)) == shown
    assert parse_html(stranger.get(board)).find("a", href=f"/game/{game.pk}/replay/")


def test_the_home_page_shows_todays_daily_with_the_players_result(client):
    home = parse_html(client.get("/"))
    assert home.find(id="daily") and not home.find_all(id="daily-result")
    client.post("/daily/start/")
    game = Game.objects.get()
    act(client, game, "resign")
    assert parse_html(client.get("/")).find(id="daily-result")["data-status"] == "lost"


def test_the_calendar_lists_days_with_the_players_result(client):
    client.post("/daily/start/")
    rows = parse_html(client.get("/daily/calendar/")).find(id="calendar").find_all("tr", data_day=True)
    assert rows[0]["data-day"] == deals.today().isoformat() and rows[0]["data-result"] == "playing"


def test_daily_streaks_count_runs_of_days():
    today = deals.today()
    days = [(today - timedelta(days=n), n != 1) for n in range(4)] + [(today - timedelta(days=9), True)]
    counted = selectors.streaks(days)
    assert (counted.played_current, counted.played_best) == (4, 4)
    assert (counted.won_current, counted.won_best) == (1, 2)
    assert selectors.streaks([(today - timedelta(days=1), True)]).won_current == 1  # today is still to play
    assert selectors.streaks([(today - timedelta(days=2), True)]).won_current == 0


def test_a_ranked_daily_played_after_its_day_ended_goes_on_as_practice_and_enters_no_board():
    """Started before midnight UTC, finished after: the day's seed is about to be public, so the
    actions after the day's end no longer count for its board (docs/RULES.md, "The daily deal")."""
    ada = account("ada")
    win = quick_win()
    yesterday = deals.today() - timedelta(days=1)
    DailySeed.objects.create(day=yesterday, seed=str(win.seed), seed_sha256=seed_digest(str(win.seed)))
    closes = daily_closes_at(yesterday)
    game = game_start(
        owner=user_owner(ada), deal_number=win.deal_number, origin="daily", daily=yesterday, seed=str(win.seed),
        now=closes - timedelta(minutes=5),
    )  # fmt: skip
    before = play_actions(user_owner(ada), game, win.actions[:3], start=closes - timedelta(minutes=4), step=SECOND)
    assert Game.objects.get(pk=game.pk).origin == "daily"  # still its day
    won = play_actions(user_owner(ada), before, win.actions[3:], start=closes + SECOND, step=SECOND)
    assert (won.status, won.origin, won.ranked) == ("won", "practice", True)
    assert not BoardEntry.objects.filter(game=won).exists()  # practice: on no board


def test_a_days_seed_is_revealed_a_grace_after_the_day_ends(settings, client):
    settings.ADDICTION_DAILY_REVEAL_GRACE_SECONDS = 600
    day = deals.today() - timedelta(days=1)
    closes = daily_closes_at(day)
    assert not daily_revealed(day, now=closes + timedelta(seconds=599))
    assert daily_revealed(day, now=closes + timedelta(seconds=600))
    seed = services.seed_of(day)
    page = text_of(client.get(f"/daily/{day.isoformat()}/"))
    assert (seed.seed in page) == daily_revealed(day)


# --------------------------------------------------------------------------- the solver's game (issue 27)


def test_after_the_reveal_the_daily_page_shows_how_the_solver_played_the_days_deal(
    client, monkeypatch, django_capture_on_commit_callbacks
):
    from games import solver

    yesterday = deals.today() - timedelta(days=1)
    assert not parse_html(client.get("/daily/")).find_all(id="solver-daily")  # today's seed is secret: nothing yet
    played = []
    real = solver.follow_hints

    def follow(start, **budgets):
        played.append((start, real(start, **budgets)))
        return played[-1][1]

    monkeypatch.setattr(solver, "follow_hints", follow)
    services.seed_of(yesterday)  # someone played it: its seed was made
    with django_capture_on_commit_callbacks(execute=True):
        first = parse_html(client.get(f"/daily/{yesterday.isoformat()}/"))
    assert "pending" in first.find(id="solver-daily")["class"] and not played  # a page asks for nothing
    assert tasks.solver_dailies_ask(now=timezone.now(), dry_run=True) == 1
    assert tasks.solver_dailies_ask(now=timezone.now()) == 1  # the housekeeping asks; the worker plays it
    shown = parse_html(client.get(f"/daily/{yesterday.isoformat()}/")).find(id="solver-daily")
    ((start, followed),) = played
    # The day's deal, with the day's revealed seed, as a player who follows every hint.
    solver_seed = int(deals.player_seed(services.seed_of(yesterday).seed, deals.SOLVER_KEY))
    assert (start.deal_number, start.seed) == (deals.deal_number_of(yesterday), solver_seed)
    assert start.moves == 0 and followed.state.is_over
    assert shown["data-won"] == ("true" if followed.state.status is engine.Status.WON else "false")
    assert shown["data-moves"] == str(followed.state.moves)
    assert tasks.solver_dailies_ask(now=timezone.now()) == 0
    assert len(played) == 1  # played once
