"""The fixtures shared by the web tests; the helpers they use are in tests/helpers.py.

The fixtures need the database and are only set up by the tests that ask for them, but for
one that empties Django's cache before every test.
"""

from __future__ import annotations

import os

import pytest
from django.core.cache import caches
from hypothesis import settings as hypothesis_settings

from games.models import Game
from tests.helpers import new_game

# Hypothesis's profiles: "dev" (the default) tries a quarter of the examples, the same ones on
# every run (derandomized: a fuzz test that asserts it met every kind of answer cannot pass on
# one run and fail on the next), for a quick run on a contributor's machine; "ci" (.ci/run
# sets HYPOTHESIS_PROFILE=ci) tries them all, drawn afresh each run.  The tests say their full
# counts through tests.helpers.examples, which reads the profile.
hypothesis_settings.register_profile("ci", max_examples=100)
hypothesis_settings.register_profile("dev", max_examples=25, derandomize=True)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty fragment cache, which outlives a test.  The shared cache
    is the database's (settings.CACHES), rolled back with each test like the rest of it."""
    caches["local"].clear()


@pytest.fixture
def game(client, db) -> Game:
    """A fresh guest game of deal 1, owned by ``client``'s guest cookie.

    Deal 1, as dealt (gaps at 1-6, 2-6, 2-8, 3-4)::

        7H 9S 4H 8D 8H 5C JH 6H 9C JS 5H KH 3S
        2H JD 5D 7D 4D 2S -- 6C KS KD TD TC JC
        TH 8C QS 4C 6S 7S -- 5S -- KC 6D QC QD
        QH 9H 3H 3C -- 4S 2D 8S TS 3D 2C 9D 7C

    Tests read the moves from ``game.state()`` rather than trusting this drawing.
    """
    return new_game(client, 1)
