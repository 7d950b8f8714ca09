"""Test settings: the real settings, with a throwaway secret and plain static storage.

The compressed manifest storage needs collectstatic first, which unit tests should not.
"""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-not-secret")
os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "0")  # the test client and live server speak plain http

from addiction_site.settings import *  # noqa: E402,F403

# SQLite's test database in memory, each xdist worker its own: pytest-django recognises SQLite by
# Django's engine name, not by django-prometheus's wrapper of it (settings.DATABASES), and
# would otherwise name a file for each worker.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    DATABASES["default"].setdefault("TEST", {}).setdefault("NAME", ":memory:")  # noqa: F405
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Serve static files from the app folders as they are: no collectstatic, no warning about its folder.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
# The background searches (games/background.py) are small here, so that the many games the
# tests finish stay quick; the analysis's own tests set more.  Tasks run at once, inside the
# request that asks for them (once its transaction commits).
ADDICTION_ANALYSIS_BUDGET = 2_000
ADDICTION_DEEP_BUDGET = 5_000
ADDICTION_ANALYSIS_RETRY_BUDGET = 5_000
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend", "QUEUES": ["default"]}}
# pytest-django sends mail to Django's locmem backend (the ``mailoutbox`` fixture), so the
# pages that mail links work here as with real mail settings; tests of a site without any
# set this back to False.
ADDICTION_MAIL_CONFIGURED = True
# A past day's seed is revealed at once at midnight here, so that no test depends on running
# more than the grace after midnight UTC; the grace's own tests set it (tests/daily/).
ADDICTION_DAILY_REVEAL_GRACE_SECONDS = 0
# The rate limits (addiction_site/limits.py) are far off here: a test starts games, asks hints
# and replays as fast as code can; the limits' own tests (tests/abuse/test_limits.py) set them.
ADDICTION_RATES = {kind: ("100000/m", "100000/m") for kind in ADDICTION_RATES}  # noqa: F405
# A live race's clocks start the moment the host starts it here, so that a test plays at once;
# the countdown's own tests (tests/races/) set it.
ADDICTION_RACE_COUNTDOWN_SECONDS = 0
# No first places wait for review here, so that the many wins the tests play by machine enter
# the boards at once; the review's own tests and the attack scripts set the production figure
# (tests/records/test_review_before_the_top.py, tests/abuse/test_patient_scripts.py).
ADDICTION_REVIEW_TOP = 0
ADDICTION_PUZZLES_FIRST = 0  # no fresh deals searched by a housekeeping run unless a test asks
