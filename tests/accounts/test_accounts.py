"""Accounts: sign up, log in and out, change password; a guest's games come along; nobody
reaches another player's game.

django-axes needs the request to authenticate, so tests that only need someone logged in
use ``client.force_login``; the log-in form itself is posted where it is what is tested.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth import SESSION_KEY as AUTH_SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client

from addiction_site.ownership import GUEST_COOKIE, Owner
from games.models import Action, Game
from games.services import game_act, game_delete
from records.models import BoardEntry, Player
from tests.helpers import HTMX, a_movable_slot, act, grid, guest_token_of, new_game, parse_html, snapshot, text_of
from tests.winning import guest_owner, play_with_client, quick_win, recorded_win, reseed, user_owner

pytestmark = pytest.mark.django_db

PASSWORD = "plum-orchard-lantern-42"
START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def signup(client, username: str = "ada", password: str = PASSWORD, **extra):
    return client.post(
        "/accounts/signup/",
        {"username": username, "password1": password, "password2": extra.pop("password2", password), **extra},
    )


def logged_in_user(client) -> User | None:
    pk = client.session.get(AUTH_SESSION_KEY)
    return User.objects.get(pk=pk) if pk else None


# --------------------------------------------------------------------------- sign up


def test_the_signup_page_asks_for_a_name_two_passwords_and_an_optional_email(client):
    response = client.get("/accounts/signup/")
    assert response.status_code == 200
    fields = parse_html(response).find("form", action="/accounts/signup/").find_all("input")
    assert {"username", "email", "password1", "password2"} <= {field.get("name") for field in fields}
    form = response.context["form"]
    assert form.fields["email"].required is False
    assert form.fields["username"].required and form.fields["password1"].required


def test_signing_up_creates_the_account_and_logs_in(client):
    response = signup(client, "ada")
    assert response.status_code == 302 and response.url == "/my-games/"
    user = User.objects.get(username="ada")
    assert user.email == ""
    assert user.check_password(PASSWORD) and user.password != PASSWORD
    assert logged_in_user(client) == user
    profile = parse_html(client.get("/my-games/")).find_all("a", href="/players/ada/")
    assert [link.text for link in profile] == ["ada"]


def test_signing_up_keeps_an_email_when_given(client):
    assert signup(client, "grace", email="grace@example.org").status_code == 302
    assert User.objects.get(username="grace").email == "grace@example.org"


@pytest.mark.parametrize(
    ("username", "password1", "password2", "error"),
    [
        ("ada", "Xq7!", "Xq7!", "This password is too short"),
        ("ada", "qwertyuiop", "qwertyuiop", "This password is too common"),
        ("ada", "8473625194730", "8473625194730", "This password is entirely numeric"),
        ("marguerite", "marguerite1", "marguerite1", "The password is too similar to the username"),
        ("ada", PASSWORD, PASSWORD + "x", "The two password fields didn"),
        ("", PASSWORD, PASSWORD, "This field is required"),
        ("no spaces!", PASSWORD, PASSWORD, "Enter a valid username"),
        ("taken", PASSWORD, PASSWORD, "A user with that username already exists"),
    ],
)
def test_signup_applies_djangos_validators(client, username, password1, password2, error):
    User.objects.create_user("taken", password="whatever-else-77")
    response = signup(client, username, password1, password2=password2)
    assert response.status_code == 400
    assert error in text_of(response)
    assert User.objects.count() == 1
    assert logged_in_user(client) is None


def test_signup_when_logged_in_goes_to_my_games(client):
    user = User.objects.create_user("ada", password=PASSWORD)
    client.force_login(user)
    assert client.get("/accounts/signup/").url == "/my-games/"
    assert signup(client, "other").url == "/my-games/"
    assert not User.objects.filter(username="other").exists()


# --------------------------------------------------------------------------- log in, log out, password


def test_the_login_form_logs_in_and_follows_next(client):
    user = User.objects.create_user("ada", password=PASSWORD)
    assert client.get("/accounts/login/").status_code == 200
    response = client.post(
        "/accounts/login/?next=/my-games/", {"username": "ada", "password": PASSWORD, "next": "/my-games/"}
    )
    assert response.status_code == 302 and response.url == "/my-games/"
    assert logged_in_user(client) == user


def test_a_wrong_password_does_not_log_in(client):
    User.objects.create_user("ada", password=PASSWORD)
    response = client.post("/accounts/login/", {"username": "ada", "password": "not-it"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in text_of(response)
    assert logged_in_user(client) is None


def test_logging_out_is_a_post_and_leaves_the_games_behind(client):
    user = User.objects.create_user("ada", password=PASSWORD)
    client.force_login(user)
    game = new_game(client)
    assert client.get("/accounts/logout/").status_code == 405
    assert logged_in_user(client) == user

    response = client.post("/accounts/logout/")
    assert response.status_code == 302 and response.url == "/"
    assert logged_in_user(client) is None
    assert client.get(f"/game/{game.pk}/").status_code == 404
    assert not parse_html(client.get("/my-games/")).find_all(data_game=str(game.pk))
    assert Game.objects.get(pk=game.pk).owner == user


def test_changing_the_password_needs_the_old_one_and_keeps_the_session(client):
    assert client.get("/accounts/password/").url.startswith("/accounts/login/")
    user = User.objects.create_user("ada", password=PASSWORD)
    client.force_login(user)
    assert client.get("/accounts/password/").status_code == 200

    new = "quince-harbour-meadow-7"
    wrong = client.post("/accounts/password/", {"old_password": "nope", "new_password1": new, "new_password2": new})
    assert wrong.status_code == 200 and "Your old password was entered incorrectly" in text_of(wrong)
    weak = client.post(
        "/accounts/password/", {"old_password": PASSWORD, "new_password1": "123", "new_password2": "123"}
    )
    assert weak.status_code == 200 and "This password is too short" in text_of(weak)
    user.refresh_from_db()
    assert user.check_password(PASSWORD)

    done = client.post("/accounts/password/", {"old_password": PASSWORD, "new_password1": new, "new_password2": new})
    assert done.status_code == 302 and done.url == "/accounts/password/done/"
    user.refresh_from_db()
    assert user.check_password(new)
    assert client.get("/accounts/password/").status_code == 200  # still logged in


# --------------------------------------------------------------------------- a guest's games come along


@pytest.fixture
def guest_games(client):
    """A guest's games in one browser: one untouched, one with a move, one given up, one won."""
    fresh = new_game(client, 1)
    moved = new_game(client, 2)
    act(client, moved, "move", slot=a_movable_slot(moved))
    resigned = new_game(client, 3)
    client.post(f"/game/{resigned.pk}/resign/", {"version": 0})
    won = recorded_win(guest_owner(client), quick_win(), finished_at=START)
    games = {"fresh": fresh, "moved": moved, "resigned": resigned, "won": won}
    assert {name: Game.objects.get(pk=g.pk).status for name, g in games.items()} == {
        "fresh": "playing",
        "moved": "playing",
        "resigned": "lost",
        "won": "won",
    }
    assert Game.objects.get(pk=won.pk).ranked
    assert not BoardEntry.objects.exists(), "a guest's win has no one to put on the boards"
    return games


def assert_claimed(games: dict, user: User):
    for name, game in games.items():
        stored = Game.objects.get(pk=game.pk)
        assert (stored.owner_id, stored.guest_token) == (user.pk, ""), name
    won = games["won"]
    assert set(BoardEntry.objects.filter(user=user).values_list("board", "scope", "game_id")) == {
        (board, scope, won.pk)
        for board in ("time", "moves")
        for scope in ("all", "week:2026-W45", "day:2026-11-02", f"deal:{won.deal_number}")
    }


def test_signing_up_claims_the_games_played_in_this_browser(client, guest_games):
    before = {name: snapshot(g) for name, g in guest_games.items()}
    assert signup(client, "ada").status_code == 302
    user = User.objects.get(username="ada")
    assert_claimed(guest_games, user)
    for name, game in guest_games.items():  # nothing but the owner changed
        after = snapshot(game)
        assert {k: v for k, v in after.items() if k not in ("owner_id", "guest_token")} == {
            k: v for k, v in before[name].items() if k not in ("owner_id", "guest_token")
        }, name

    page = parse_html(client.get("/my-games/"))
    listed = {
        table: {int(row["data-game"]) for row in page.find("table", id=table).find_all("tr", data_game=True)}
        for table in ("games-in-progress", "games-finished")
    }
    assert listed == {
        "games-in-progress": {guest_games[n].pk for n in ("fresh", "moved")},
        "games-finished": {guest_games[n].pk for n in ("resigned", "won")},
    }


def test_logging_in_with_the_form_claims_the_games_played_in_this_browser(client, guest_games):
    user = User.objects.create_user("ada", password=PASSWORD)
    assert client.post("/accounts/login/", {"username": "ada", "password": PASSWORD}).status_code == 302
    assert_claimed(guest_games, user)


def test_the_claim_drops_the_guest_cookie_and_a_guest_after_logout_is_new(client, guest_games):
    token = guest_token_of(client)
    response = signup(client, "ada")
    assert response.cookies[GUEST_COOKIE].value == "" and response.cookies[GUEST_COOKIE]["max-age"] == 0
    client.post("/accounts/logout/")
    later = new_game(client, 9)
    assert guest_token_of(client) not in ("", token)
    assert Game.objects.get(pk=later.pk).owner_id is None


def test_a_claimed_game_plays_on_from_where_it_was(client, guest_games):
    moved = guest_games["moved"]
    before = grid(client.get(f"/game/{moved.pk}/"))
    signup(client, "ada")
    after = grid(client.get(f"/game/{moved.pk}/"))
    assert (after.position, after.version, after.moves) == (before.position, before.version, before.moves)
    response = act(client, moved, "move", slot=a_movable_slot(moved))
    assert response.status_code == 200 and grid(response).moves == before.moves + 1


def test_claiming_takes_only_this_browsers_games(client, guest_games):
    other_guest = Client()
    theirs = new_game(other_guest, 1)
    owner_already = User.objects.create_user("bob", password=PASSWORD)
    bobs = new_game(Client(), 1)
    Game.objects.filter(pk=bobs.pk).update(owner=owner_already, guest_token="")
    signup(client, "ada")
    assert Game.objects.get(pk=theirs.pk).owner_id is None
    assert Game.objects.get(pk=theirs.pk).guest_token == guest_token_of(other_guest)
    assert Game.objects.get(pk=bobs.pk).owner == owner_already
    assert Game.objects.filter(owner__username="ada").count() == len(guest_games)


def test_games_of_a_second_guest_session_go_to_the_account_that_logs_in_there(client):
    first = new_game(client, 1)
    signup(client, "ada")
    client.post("/accounts/logout/")
    second = new_game(client, 2)  # a guest again, with a new token
    User.objects.create_user("bob", password=PASSWORD)
    assert client.post("/accounts/login/", {"username": "bob", "password": PASSWORD}).status_code == 302
    bob = User.objects.get(username="bob")
    assert Game.objects.get(pk=first.pk).owner.username == "ada"
    assert Game.objects.get(pk=second.pk).owner == bob


def test_the_old_guest_token_no_longer_reaches_a_claimed_game(client, guest_games):
    token = guest_token_of(client)
    signup(client, "ada")
    assert guest_token_of(client) == ""  # the claim dropped the guest cookie
    stranger = Client()
    stranger.cookies[GUEST_COOKIE] = f"{token}.2026-11-29"
    for game in guest_games.values():
        assert stranger.get(f"/game/{game.pk}/").status_code == 404


def test_a_guests_win_played_through_the_pages_enters_the_boards_when_claimed(client):
    win = quick_win()
    game = reseed(new_game(client, win.deal_number), win.seed)
    game = play_with_client(client, game, win.actions, htmx=False)
    assert (game.status, game.ranked, game.moves) == ("won", True, win.moves)
    assert not BoardEntry.objects.exists()
    signup(client, "ada")
    board = client.get(f"/deal/{win.deal_number}/leaderboard/?board=moves")
    assert parse_html(board).find_all("tr", data_player="ada")


# --------------------------------------------------------------------------- nobody else's game


GET_PAGES = ["/game/{pk}/", "/game/{pk}/delete/"]
FINISHED_PAGES = ["/game/{pk}/verify/", "/game/{pk}/replay/", "/game/{pk}/replay/0/", "/game/{pk}/replay/1/"]
POSTS = ["move", "undo", "shuffle", "resign", "delete"]


def make_player(kind: str, name: str) -> Client:
    """A client that is a guest with a game of its own, or a logged-in account."""
    client = Client()
    if kind == "user":
        client.force_login(User.objects.create_user(name, password=PASSWORD))
    new_game(client, 9)
    return client


@pytest.fixture(params=["user", "guest"])
def victim(request):
    """The owner (an account or a guest) of a game in progress with a move to undo, and a
    finished game with a log; every one of its pages answers 200 to its owner."""
    client = make_player(request.param, "victim")
    playing = new_game(client, 1)
    act(client, playing, "move", slot=a_movable_slot(playing))
    finished = new_game(client, 2)
    act(client, finished, "move", slot=a_movable_slot(finished))
    client.post(f"/game/{finished.pk}/resign/", {"version": 1})
    for path in GET_PAGES:
        assert client.get(path.format(pk=playing.pk)).status_code == 200, path
    for path in FINISHED_PAGES:
        assert client.get(path.format(pk=finished.pk)).status_code == 200, path
    return client, Game.objects.get(pk=playing.pk), Game.objects.get(pk=finished.pk)


@pytest.mark.parametrize("stranger_kind", ["user", "guest", "anonymous"])
def test_every_page_of_someone_elses_game_is_404(victim, stranger_kind):
    _owner, playing, finished = victim
    stranger = Client() if stranger_kind == "anonymous" else make_player(stranger_kind, "stranger")
    for game, paths in ((playing, GET_PAGES + FINISHED_PAGES), (finished, GET_PAGES + FINISHED_PAGES)):
        for path in paths:
            url = path.format(pk=game.pk)
            assert stranger.get(url).status_code == 404, url
            assert stranger.get(url, headers=HTMX).status_code == 404, url


@pytest.mark.parametrize("stranger_kind", ["user", "guest", "anonymous"])
def test_every_post_to_someone_elses_game_is_404_and_changes_nothing(victim, stranger_kind):
    owner, playing, finished = victim
    stranger = Client() if stranger_kind == "anonymous" else make_player(stranger_kind, "stranger")
    # What a form could claim: the right version, a slot that moves, the owner's name and token.
    claims = {
        "slot": "{}-{}".format(*a_movable_slot(playing)),
        "owner": playing.owner_id or "",
        "guest_token": guest_token_of(owner),
        "user": "victim",
    }
    before = {game.pk: snapshot(game) for game in (playing, finished)}
    for game in (playing, finished):
        for kind in POSTS:
            url = f"/game/{game.pk}/{kind}/"
            for headers in ({}, HTMX):
                response = stranger.post(url, {"version": game.version, **claims}, headers=headers)
                assert response.status_code == 404, (url, headers)
    assert {game.pk: snapshot(game) for game in (playing, finished)} == before
    assert Action.objects.filter(game__in=[playing, finished]).count() == 1 + 2


def test_the_owner_still_can_do_all_that(victim):
    """The other side of the 404s above: the same posts work for the owner."""
    owner, playing, _finished = victim
    assert act(owner, playing, "move", slot=a_movable_slot(playing)).status_code == 200
    for kind in ("undo", "shuffle", "resign"):
        assert act(owner, playing, kind).status_code == 200, kind
    assert Game.objects.get(pk=playing.pk).status == "lost"
    other = new_game(owner, 5)
    assert owner.post(f"/game/{other.pk}/delete/").status_code == 302
    assert not Game.objects.filter(pk=other.pk).exists()


def test_the_services_refuse_another_owners_game_whatever_the_caller_says(client):
    ada = User.objects.create_user("ada", password=PASSWORD)
    bob = User.objects.create_user("bob", password=PASSWORD)
    won = recorded_win(user_owner(ada), quick_win(), finished_at=START)
    playing = new_game(client, 4)  # a guest's
    strangers = [user_owner(bob), Owner(user_id=None, guest_token=""), Owner(user_id=None, guest_token="x" * 32)]
    for owner in strangers + [user_owner(ada)]:
        with pytest.raises(Game.DoesNotExist):
            game_act(owner=owner, game_id=playing.pk, version=0, kind="resign")
        with pytest.raises(Game.DoesNotExist):
            game_delete(owner=owner, game_id=playing.pk)
    for owner in strangers + [guest_owner(client)]:
        with pytest.raises(Game.DoesNotExist):
            game_act(owner=owner, game_id=won.pk, version=won.version, kind="resign")
    assert Game.objects.get(pk=playing.pk).status == "playing"
    assert Game.objects.filter(pk=won.pk).exists()


@pytest.mark.parametrize(
    ("name", "error"),
    [
        (".", "more than dots"),
        ("..", "more than dots"),
        ("...", "more than dots"),
        ("\u0430lice", "one alphabet"),  # a Cyrillic а, then Latin letters: passes for alice
        ("Ad\u03b1", "one alphabet"),  # a Greek alpha at the end
    ],
)
def test_a_name_of_dots_or_of_two_alphabets_is_refused(client, name, error):
    response = signup(client, name)
    assert response.status_code == 400 and error in text_of(response)
    assert not User.objects.filter(username=name).exists()


@pytest.mark.parametrize("name", ["ada.lovelace", "कमल", "Ελένη", "東京たろう", "Élodie_2"])
def test_a_name_in_one_alphabet_is_welcome(client, name):
    assert signup(client, name).status_code == 302
    assert User.objects.filter(username=name).exists()
    assert client.get(f"/players/{name}/").status_code == 200


def test_each_guest_whose_games_an_account_takes_is_counted_for_moderation():
    """A fresh guest per deal, logged in only with the winner's cookie, shows as many claims."""
    User.objects.create_user("ada", password=PASSWORD)
    for deal_number in (1, 2, 3):
        browser = Client()
        new_game(browser, deal_number)  # a new guest each time
        assert browser.post("/accounts/login/", {"username": "ada", "password": PASSWORD}).status_code == 302
    empty = Client()  # a login with no guest games claims nothing
    assert empty.post("/accounts/login/", {"username": "ada", "password": PASSWORD}).status_code == 302
    assert Player.objects.get(user__username="ada").guests_claimed == 3
