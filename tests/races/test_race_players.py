"""Who plays a live race (docs/RULES.md, "Races"; issue 42): the host removes a player before the
start, and a player who cannot be dealt a game at the start does not hold it up."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game
from races.models import Entry, Race
from races.selectors import Snapshot, snapshot
from tests.helpers import HTMX, a_movable_slot, account, act, logged_in, new_game, parse_html, text_of
from tests.races.test_races import join, open_race, standings

pytestmark = pytest.mark.django_db


def remove_buttons(page) -> dict[str, str]:
    """The host's Remove forms on a race's page: each player's name, and where its form posts."""
    found = {}
    for item in parse_html(page).find_all("li", data_entry=True):
        (form,) = item.find_all("form")
        assert form["method"] == "post" and form.find_all("input", name="csrfmiddlewaretoken")
        found[item.text.split()[0]] = form["action"]
    return found


def a_live_race_with_grace_and_alan() -> tuple[Client, Client, Client, Race]:
    host, grace, alan = Client(), Client(), Client()
    race = open_race(host)
    assert join(grace, race, "Grace").status_code == 302
    assert join(alan, race, "Alan").status_code == 302
    return host, grace, alan, race


# --------------------------------------------------------------------------- removing a player


def test_the_host_removes_a_player_before_the_start_and_the_player_is_no_longer_in_it():
    host, grace, alan, race = a_live_race_with_grace_and_alan()
    buttons = remove_buttons(host.get(f"/race/{race.code}/"))
    assert set(buttons) == {"Grace", "Alan"}  # beside each player who joined; never the host's own
    assert remove_buttons(grace.get(f"/race/{race.code}/")) == {}  # the host's view only
    roster = Race.objects.get(pk=race.pk).roster

    response = host.post(buttons["Grace"])
    assert response.status_code == 302 and response["Location"] == f"/race/{race.code}/"
    assert "Grace was removed from the race." in text_of(host.get(response["Location"]))
    assert set(standings(host, race)) == {"Ada", "Alan"}
    assert not Entry.objects.filter(race=race, name="Grace").exists()
    assert Race.objects.get(pk=race.pk).roster > roster  # the streams take the shorter list as the newer
    page = parse_html(grace.get(f"/race/{race.code}/"))  # as anyone who has not joined
    assert page.find("form", action=f"/race/{race.code}/join/") and not page.find_all("tr", data_player="Grace")

    assert host.post(f"/race/{race.code}/start/").status_code == 302
    assert not Game.objects.filter(race_entry__race=race, race_entry__name="Grace").exists()
    assert Game.objects.filter(race_entry__race=race).count() == 2  # Ada's and Alan's


def test_the_hosts_list_of_players_comes_again_as_it_is_now():
    """What the host's page asks for when its stream says the players changed (races/static/races/race.js)."""
    host, grace, _alan, race = a_live_race_with_grace_and_alan()
    join(Client(), race, "Mary")
    players = host.get(f"/race/{race.code}/players/", headers=HTMX)
    assert set(remove_buttons(players)) == {"Grace", "Alan", "Mary"}
    assert parse_html(players).find("ul", id="joiners")["hx-trigger"] == "race-roster-changed from:body"
    assert remove_buttons(grace.get(f"/race/{race.code}/players/", headers=HTMX)) == {}  # nobody else's
    host.post(f"/race/{race.code}/start/")
    assert remove_buttons(host.get(f"/race/{race.code}/players/", headers=HTMX)) == {}  # nor after the start


def test_a_removal_posts_with_its_csrf_token():
    host, _grace, _alan, race = a_live_race_with_grace_and_alan()
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = host.cookies  # the host's browser, as a forged form from another site would use it
    assert strict.post(remove_buttons(host.get(f"/race/{race.code}/"))["Grace"]).status_code == 403
    assert Entry.objects.filter(race=race, name="Grace").exists()


def test_nobody_but_the_host_removes_a_player():
    host, grace, _alan, race = a_live_race_with_grace_and_alan()
    alan_entry = Entry.objects.get(race=race, name="Alan")
    url = f"/race/{race.code}/remove/{alan_entry.pk}/"
    assert grace.post(url).status_code == 404  # another player
    assert Client().post(url).status_code == 404  # a visitor
    assert logged_in(account("mallory")).post(url).status_code == 404
    assert host.get(url).status_code == 405  # a GET changes nothing
    assert Entry.objects.filter(pk=alan_entry.pk).exists()


def test_removing_after_the_start_from_a_challenge_the_host_or_nobody_is_refused():
    host, _grace, _alan, race = a_live_race_with_grace_and_alan()
    ada = Entry.objects.get(race=race, name="Ada")
    refused = host.post(f"/race/{race.code}/remove/{ada.pk}/")
    assert refused.status_code == 409 and parse_html(refused).find("p", data_refused="the host")
    assert host.post(f"/race/{race.code}/remove/999999/").status_code == 404  # nobody of this race
    other = open_race(Client(), name="Eve")
    eve = Entry.objects.get(race=other, name="Eve")
    assert host.post(f"/race/{race.code}/remove/{eve.pk}/").status_code == 404  # another race's player

    assert host.post(f"/race/{race.code}/start/").status_code == 302
    alan = Entry.objects.get(race=race, name="Alan")
    late = host.post(f"/race/{race.code}/remove/{alan.pk}/")
    assert late.status_code == 409 and parse_html(late).find("p", data_refused="too late")
    assert "nobody can be removed from it now" in text_of(late)
    assert Entry.objects.filter(pk=alan.pk, game__isnull=False).exists()
    assert remove_buttons(host.get(f"/race/{race.code}/")) == {}

    challenge_host = Client()
    challenge = open_race(challenge_host, mode="challenge")
    join(Client(), challenge, "Grace")
    grace = Entry.objects.get(race=challenge, name="Grace")
    refused = challenge_host.post(f"/race/{challenge.code}/remove/{grace.pk}/")
    assert refused.status_code == 409 and parse_html(refused).find("p", data_refused="a challenge")
    assert Entry.objects.filter(pk=grace.pk, game__isnull=False).exists()


def test_a_snapshot_after_a_removal_is_the_newer_though_it_has_fewer_rows():
    host, _grace, _alan, race = a_live_race_with_grace_and_alan()
    before = snapshot(Race.objects.get(pk=race.pk), timezone.now())
    host.post(remove_buttons(host.get(f"/race/{race.code}/"))["Grace"])
    after = snapshot(Race.objects.get(pk=race.pk), timezone.now())
    assert len(after.rows) < len(before.rows) and after.order > before.order
    assert Snapshot.from_message(after.as_message()) == after


# --------------------------------------------------------------------------- a player who cannot play


def busy(client: Client, games: int) -> None:
    """Give the player behind ``client`` ``games`` games in progress, each with an action (so
    that none makes room for a new one: docs/RULES.md, "Players, guests and deleting games")."""
    for number in range(games):
        game = new_game(client, number + 1)
        assert act(client, game, "move", slot=a_movable_slot(game)).status_code == 200


def test_a_player_who_cannot_be_dealt_a_game_does_not_hold_up_the_start(settings):
    host, grace, alan, race = a_live_race_with_grace_and_alan()
    settings.ADDICTION_MAX_GAMES_IN_PROGRESS = 2
    busy(grace, 2)

    started = host.post(f"/race/{race.code}/start/")
    assert started.status_code == 302
    race.refresh_from_db()
    assert race.state == Race.State.RUNNING
    grace_entry = Entry.objects.get(race=race, name="Grace")
    assert grace_entry.unable and grace_entry.game is None
    assert all(entry.game is not None for entry in race.entries.exclude(name="Grace"))
    assert Game.objects.filter(race_entry__race=race).count() == 2

    rows = standings(alan, race)
    assert list(rows) == ["Ada", "Alan", "Grace"] and rows["Grace"]["state"] == "unable"  # listed last
    assert "could not play: too many games in progress at the start" in text_of(host.get(f"/race/{race.code}/"))
    graces_page = parse_html(grace.get(f"/race/{race.code}/"))
    assert graces_page.find("p", data_unable=True) and "Play your game" not in graces_page.text
    assert Game.objects.filter(guest_token=Entry.objects.get(pk=grace_entry.pk).guest_token).count() == 2


def test_a_player_who_could_not_play_has_no_place_on_their_profile(settings, django_capture_on_commit_callbacks):
    grace_account = account("grace")
    host, grace = Client(), logged_in(grace_account)
    race = open_race(host)
    join(grace, race, "Grace")
    settings.ADDICTION_MAX_GAMES_IN_PROGRESS = 1
    busy(grace, 1)
    host.post(f"/race/{race.code}/start/")
    ada = Entry.objects.get(race=race, name="Ada").game
    with django_capture_on_commit_callbacks(execute=True):  # her game was the only one: the race closes
        act(host, ada, "resign")
    race.refresh_from_db()
    assert race.state == Race.State.CLOSED
    (item,) = parse_html(Client().get("/players/grace/")).find_all("li", data_race=race.code)
    assert "data-place" not in item.attrs and "could not play" in item.text


def test_when_nobody_can_be_dealt_a_game_the_start_is_refused_and_the_race_stays_open(settings):
    host = Client()
    settings.ADDICTION_MAX_GAMES_IN_PROGRESS = 1
    busy(host, 1)
    race = open_race(host)
    refused = host.post(f"/race/{race.code}/start/")
    assert refused.status_code == 409 and parse_html(refused).find("p", data_refused="nobody can play")
    race.refresh_from_db()
    assert race.state == Race.State.OPEN and race.started_at is None
    assert not Entry.objects.filter(race=race, unable=True).exists()
    assert not Game.objects.filter(race_entry__race=race).exists()


def test_only_a_race_page_loads_the_race_script():
    """race.js opens a race's stream; the pages with no race do not fetch it (issue 44)."""
    host = Client()
    race = open_race(host)

    def scripts(url: str) -> list[str]:
        return [tag["src"] for tag in parse_html(host.get(url)).find_all("script", src=True)]

    assert any("races/race" in src for src in scripts(f"/race/{race.code}/"))
    game = new_game(host)
    for url in ("/", f"/game/{game.pk}/", "/leaderboards/", "/how-to-play/"):
        assert not any("races/race" in src for src in scripts(url)), url


def test_the_race_forms_kinds_are_named_as_a_menu_names_them():
    page = parse_html(Client().get("/race/new/"))
    options = {option["value"]: option.text for option in page.find("select", name="mode").find_all("option")}
    assert options == {"live": "Live", "challenge": "Challenge"}
