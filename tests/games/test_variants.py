"""The family's variants on the site (issue 29, docs/RULES.md, "The variants"): choosing one,
playing it through the pages and the services to a win, its replay and verification, its
own boards and profile figures, races of it, and the games from before it staying Addiction's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from addiction_site.ownership import Owner
from games import engine, solver
from games.models import Game
from games.services import game_act, game_start, game_verify
from records.models import BoardEntry
from tests.helpers import HTMX, account, act, logged_in, migrate, parse_html, text_of
from tests.winning import reseed

START = datetime(2026, 12, 1, 12, tzinfo=UTC)
WIN_SEED = 7  # deal 1 of every variant is won by the hints with this seed (tests/engine/test_variants.py)


def cards_on_page(response) -> dict[str, str]:
    grid = parse_html(response).find(id="grid")
    return {slot["data-slot"]: slot.get("data-card", "") for slot in grid.find_all(data_slot=True)}


def winning_actions(variant: engine.Variant, deal_number: int = 1, seed: int = WIN_SEED):
    """(kind, slot, to) actions that win ``deal_number`` of ``variant`` with ``seed``, found by the solver."""
    state = engine.GameState.start(deal_number=deal_number, seed=seed, variant=variant)
    actions = []
    while not state.is_over:
        found = solver.search_win(state.position, 100_000)
        line = found.line if found.won else []
        if not line:
            advice = solver.hint(state.position, state.shuffles_left)
            assert advice is not None, "the hints gave up"
            if advice == solver.SHUFFLE:
                actions.append(("shuffle", None, None))
                state = state.shuffle()
                continue
            line = [advice]
        for move in line:
            actions.append(("move", move.src, move.dst))
            state = state.play(move)
    assert state.status is engine.Status.WON
    return actions


def won_game(owner: Owner, variant: engine.Variant, *, origin=Game.Origin.RANDOM) -> Game:
    game = reseed(game_start(owner=owner, deal_number=1, origin=origin, variant=variant.key, now=START), WIN_SEED)
    for i, (kind, slot, to) in enumerate(winning_actions(variant), start=1):
        played = game_act(
            owner=owner, game_id=game.pk, version=game.version, kind=kind, slot=slot, to=to,
            now=START + timedelta(seconds=2 * i),
        )  # fmt: skip
        game = played.game
    assert game.status == engine.Status.WON
    return Game.objects.get(pk=game.pk)


# --------------------------------------------------------------------------- choosing


@pytest.mark.django_db
@pytest.mark.parametrize("variant", list(engine.VARIANTS.values()), ids=lambda v: v.key)
def test_a_new_game_of_each_variant_deals_its_table(client, variant):
    response = client.post("/new/", {"deal_number": 3, "variant": variant.key})
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.variant, game.position, game.shuffles_left) == (
        variant.key, str(engine.deal(3, variant)), variant.shuffles
    )  # fmt: skip
    page = client.get(response.url)
    cards = cards_on_page(page)
    assert len(cards) == 4 * variant.cols
    assert " ".join(cards[f"{r}-0"] for r in range(4)) == " ".join(
        row[0] or "" for row in engine.deal(3, variant).rows()
    )
    assert ("wide" in parse_html(page).find(id="grid").classes) is (variant.cols == 14)


@pytest.mark.django_db
def test_the_variant_started_last_is_the_home_pages_default(client):
    assert 'data-variant="addiction" aria-current="true"' in client.get("/").content.decode()
    client.post("/new/", {"variant": "montana"})
    home = client.get("/").content.decode()
    assert 'data-variant="montana" aria-current="true"' in home
    assert 'name="variant" value="montana"' in home
    assert 'data-variant="red-moon" aria-current="true"' in client.get("/?variant=red-moon").content.decode()


@pytest.mark.django_db
def test_an_accounts_default_follows_it_to_another_browser():
    player = account()
    logged_in(player).post("/new/", {"variant": "spaces"})
    elsewhere = logged_in(player)  # another browser: no cookie of the variant
    assert 'data-variant="spaces" aria-current="true"' in elsewhere.get("/").content.decode()


@pytest.mark.django_db
def test_an_unknown_variant_is_refused_and_starts_nothing(client):
    response = client.post("/new/", {"variant": "klondike"})
    assert response.status_code == 400 and Game.objects.count() == 0
    assert client.post("/deal/5/start/", {"variant": "klondike"}).status_code == 400
    assert Game.objects.count() == 0


@pytest.mark.django_db
def test_a_deals_link_names_its_variant_and_plays_it(client):
    page = client.get("/deal/5/?variant=blue-moon")
    assert "Blue Moon" in text_of(page) and 'name="variant" value="blue-moon"' in page.content.decode()
    response = client.post("/deal/5/start/", {"variant": "blue-moon"})
    game = Game.objects.get()
    assert game.variant == "blue-moon"
    assert client.get("/deal/5/?variant=blue-moon").url == response.url  # the game in progress
    assert client.get("/deal/5/").status_code == 200  # Addiction's deal 5 is another game


# --------------------------------------------------------------------------- playing


@pytest.mark.django_db
def test_a_moon_game_takes_moves_into_column_13_and_its_hint(client):
    client.post("/new/", {"deal_number": 1, "variant": "red-moon"})
    game = Game.objects.get()
    move = game.state().position.move_for_slot((0, 1))  # the gap right of the AS takes the 2S
    response = act(client, game, "move", slot="0-1")
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.moves == 1 and game.state().position.card_at((0, 1)) == "2S"
    assert move is not None and move.card == "2S"
    hinted = client.post(f"/game/{game.pk}/hint/", {"version": game.version}, headers=HTMX)
    assert hinted.status_code == 200
    game.refresh_from_db()
    hint = game.hint_now
    assert hint is not None and game.assisted
    if hint.kind is engine.HintKind.MOVE:
        assert game.state().position.is_legal(
            engine.Move(game.state().position.card_at(hint.src), hint.src, hint.dst, cols=14)
        )


@pytest.mark.django_db
def test_an_ace_of_a_moon_cannot_move_and_column_13_is_no_slot_of_addiction(client):
    client.post("/new/", {"deal_number": 1, "variant": "blue-moon"})
    moon = Game.objects.get()
    assert act(client, moon, "move", slot="0-0").status_code == 422
    client.post("/new/", {"deal_number": 1})
    addiction = Game.objects.get(variant="addiction")
    assert act(client, addiction, "move", slot="0-13").status_code == 400
    assert Game.objects.get(pk=addiction.pk).version == 0


@pytest.mark.django_db
@pytest.mark.parametrize("variant", [engine.MONTANA, engine.SPACES, engine.BLUE_MOON], ids=lambda v: v.key)
def test_two_shuffles_then_the_page_refuses_a_third(client, variant):
    client.post("/new/", {"deal_number": 2, "variant": variant.key})
    game = Game.objects.get()
    for _ in range(2):
        if Game.objects.get(pk=game.pk).is_over:
            return  # a shuffle that leaves a stuck table with none left ends the game
        assert act(client, game, "shuffle").status_code == 200
    game.refresh_from_db()
    assert game.shuffles_used == 2 and game.shuffles_left == 0
    if not game.is_over:
        assert act(client, game, "shuffle").status_code == 422


# --------------------------------------------------------------------------- records


@pytest.mark.django_db
@pytest.mark.parametrize("variant", [engine.MONTANA, engine.RED_MOON], ids=lambda v: v.key)
def test_a_win_of_a_variant_replays_verifies_and_ranks_on_its_own_boards_only(variant):
    player = account()
    game = won_game(Owner(user_id=player.pk, guest_token=""), variant)
    assert game.ranked
    assert game_verify(game, fresh=True).ok
    scopes = set(BoardEntry.objects.filter(game=game).values_list("scope", flat=True))
    day = "2026-12-01"
    assert scopes == {
        f"{variant.key}/all",
        f"{variant.key}/week:2026-W49",
        f"{variant.key}/day:{day}",
        f"{variant.key}/deal:1",
    }
    client = logged_in(player)
    end = client.get(f"/game/{game.pk}/")  # the end says the new records, with the variant's scopes in words
    assert end.status_code == 200 and "all time #1" in text_of(end) and "this deal #1" in text_of(end)
    board = client.get(f"/leaderboards/?variant={variant.key}")
    assert parse_html(board).find(id="board").find_all(data_player=player.username)
    assert "No win on this board yet" in text_of(client.get("/leaderboards/"))
    assert parse_html(client.get(f"/deal/1/leaderboard/?variant={variant.key}")).find_all(data_player=player.username)
    assert "No win on this board yet" in text_of(client.get("/deal/1/leaderboard/"))
    how = text_of(client.get(f"/game/{game.pk}/verify/"))  # how to check it by hand: this variant's deal and shuffle
    assert "except the first of each row" in how and "Shuffle number k (0, 1) " in how
    assert ("The deal (Red Moon)" in how) is (variant is engine.RED_MOON)
    replay = client.get(f"/game/{game.pk}/replay/{game.version}/")

    assert replay.status_code == 200 and len(cards_on_page(replay)) == 4 * variant.cols
    profile = parse_html(client.get(f"/players/{player.username}/?variant={variant.key}"))
    assert profile.find(data_stat="won").text == "1"
    assert parse_html(client.get(f"/players/{player.username}/")).find(data_stat="won").text == "0"


@pytest.mark.django_db
def test_a_race_of_a_variant_deals_that_variant_to_every_player(client):
    from races.models import Race
    from races.services import race_join, race_open

    host = Owner(user_id=account("host").pk, guest_token="")
    race = race_open(owner=host, name="host", mode=Race.Mode.CHALLENGE, deal_number=9, variant="spaces")
    race_join(race=race, owner=Owner(user_id=account("guest").pk, guest_token=""), name="guest")
    games = Game.objects.filter(origin=Game.Origin.RACE)
    assert {(g.variant, g.deal_number, g.seed) for g in games} == {("spaces", 9, race.seed)}
    assert games.count() == 2


# --------------------------------------------------------------------------- the migration


@pytest.fixture
def before_variants(transactional_db):
    apps = migrate([("games", "0016_race_games")])
    yield apps
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_games_from_before_the_variants_are_addictions(before_variants):
    Old = before_variants.get_model("games", "Game")
    common = dict(guest_token="t" * 32, seed="1", seed_sha256="x", position=str(engine.deal(1)))
    old = Old.objects.create(deal_number=1, **common)
    apps = migrate([("games", "0017_game_variant")])
    assert apps.get_model("games", "Game").objects.get(pk=old.pk).variant == "addiction"


@pytest.mark.django_db
def test_a_moon_races_standings_count_the_cards_in_place_of_52(client):
    from races.models import Race
    from races.services import race_open

    client.post("/new/", {"variant": "addiction"})  # a guest, as the race's host
    host = Owner(user_id=None, guest_token=Game.objects.get().guest_token)
    race = race_open(owner=host, name="host", mode=Race.Mode.CHALLENGE, deal_number=1, variant="blue-moon")
    row = parse_html(client.get(f"/race/{race.code}/")).find(id="standings").find(data_player="host")
    in_place = len(Game.objects.get(origin=Game.Origin.RACE).state().position.locked())
    assert int(row["data-in-place"]) == in_place >= 4  # the four aces at least
    assert f"{in_place} of 52" in row.text


@pytest.mark.django_db
def test_a_given_up_moon_game_is_analysed_with_a_winning_line_of_its_table(client, django_capture_on_commit_callbacks):
    from games.models import Analysis

    client.post("/new/", {"deal_number": 35, "variant": "red-moon"})  # won in 172 positions: within the tests' budget
    game = Game.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        act(client, game, "resign")
    analysis = Analysis.objects.get(game=game)
    (stretch,) = analysis.stretches
    assert analysis.done and stretch["verdict"] == "won" and stretch["slip"] == 1
    position = engine.deal(35, engine.RED_MOON)
    for text in stretch["line"].split():
        position = position.play(engine.Move.parse(text, cols=14))
    assert position.is_won()
    assert "you gave up" in parse_html(client.get(f"/game/{game.pk}/")).find("p", class_="slip").text


@pytest.mark.django_db
def test_the_race_form_offers_the_variant_started_last(client):
    client.post("/new/", {"variant": "red-moon"})
    form = parse_html(client.get("/race/new/"))
    chosen = [option["value"] for option in form.find_all("option") if "selected" in option.attrs]
    assert "red-moon" in chosen


@pytest.mark.django_db
def test_a_profiles_races_of_a_variant_cost_no_query_more_however_many():
    from django.db import connection as db
    from django.test.utils import CaptureQueriesContext

    from races.models import Race
    from races.services import race_join, race_open

    player = account("ada")
    client = logged_in(player)
    client.get("/players/ada/")  # the session's first page saves it: not what is counted

    def races(count: int) -> int:
        for number in range(count):
            race = race_open(
                owner=Owner(user_id=player.pk, guest_token=""), name="ada", mode=Race.Mode.CHALLENGE,
                deal_number=number + 1, variant="montana",
            )  # fmt: skip
            for other in range(2):
                race_join(
                    race=race,
                    owner=Owner(user_id=account(f"p{count}{number}{other}").pk, guest_token=""),
                    name=f"p{other}",
                )
        with CaptureQueriesContext(db) as queries:
            assert client.get("/players/ada/").status_code == 200
        return len(queries)

    one = races(1)
    assert races(3) == one
