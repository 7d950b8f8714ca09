"""Where a game was started from (addiction_site/ownership.py, ``seen_from``): kept as keyed
hashes of the address and of the address with the browser, never as the address itself."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from tests.helpers import new_game

pytestmark = pytest.mark.django_db


def _start(address: str, agent: str) -> Game:
    return new_game(Client(REMOTE_ADDR=address, HTTP_USER_AGENT=agent), deal_number=7)


def test_a_game_keeps_keys_of_its_address_and_browser_and_not_the_address():
    one = _start("203.0.113.9", "Firefox")
    same_place = _start("203.0.113.9", "Firefox")
    other_browser = _start("203.0.113.9", "Chromium")
    elsewhere = _start("198.51.100.4", "Firefox")

    assert len(one.address_key) == len(one.browser_key) == 32
    assert "203.0.113.9" not in one.address_key + one.browser_key
    assert one.guest_token != same_place.guest_token  # two fresh guests...
    assert (one.address_key, one.browser_key) == (same_place.address_key, same_place.browser_key)  # ...one place
    assert other_browser.address_key == one.address_key and other_browser.browser_key != one.browser_key
    assert elsewhere.address_key != one.address_key and elsewhere.browser_key != one.browser_key
