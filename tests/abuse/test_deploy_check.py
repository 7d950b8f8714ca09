"""Production settings pass ``manage.py check --deploy``; without a secret they refuse to load.

Each case runs manage.py in a fresh interpreter with the environment a deployment would
have: the real settings module, nothing from the test settings, SQLite under a temporary
folder.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {"DJANGO_ALLOWED_HOSTS": "play.example.org", "ADDICTION_OPERATOR_EMAIL": "privacy@example.org"}


def manage(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """Run ``manage.py *args`` with only the project's variables given here (none inherited)."""
    clean = {
        key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "ADDICTION_", "DATABASE_URL"))
    }
    clean.update(DJANGO_SETTINGS_MODULE="addiction_site.settings", ADDICTION_DATA_DIR=str(tmp_path), **env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120
    )


def a_secret_key() -> str:
    return secrets.token_urlsafe(60)  # 80 characters, far more than the 50 the check wants


def test_production_settings_pass_the_deploy_check(tmp_path):
    result = manage(
        tmp_path, "check", "--deploy", "--fail-level", "WARNING", DJANGO_SECRET_KEY=a_secret_key(), **PRODUCTION
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues" in result.stdout, output
    assert "WARNING" not in output and "security.W" not in output, output


@pytest.mark.parametrize(
    ("env", "warning"),
    [
        ({"DJANGO_SECRET_KEY": "short-and-guessable"}, "security.W009"),
        ({"DJANGO_SECRET_KEY": a_secret_key(), "DJANGO_SECURE_SSL_REDIRECT": "0"}, "security.W008"),
        ({"DJANGO_SECRET_KEY": a_secret_key(), "DJANGO_HSTS_SECONDS": "0"}, "security.W004"),
        ({"DJANGO_SECRET_KEY": a_secret_key(), "ADDICTION_OPERATOR_EMAIL": ""}, "accounts.W001"),
    ],
    ids=["weak-secret", "no-https-redirect", "no-hsts", "no-operator"],
)
def test_the_deploy_check_catches_weakened_settings(tmp_path, env, warning):
    """The check above can fail: weakening one setting by environment is reported."""
    result = manage(tmp_path, "check", "--deploy", "--fail-level", "WARNING", **{**PRODUCTION, **env})
    assert result.returncode != 0
    assert warning in result.stdout + result.stderr


def test_without_a_secret_key_production_settings_refuse_to_load(tmp_path):
    result = manage(tmp_path, "check", **PRODUCTION)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr
    assert "ImproperlyConfigured" in result.stderr


def test_development_needs_no_secret(tmp_path):
    result = manage(tmp_path, "check", DJANGO_DEBUG="1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


SAYS_DEBUG = ["shell", "-c", "from django.conf import settings; print('debug', settings.DEBUG)"]


def test_a_development_checkouts_manage_py_needs_no_variable(tmp_path):
    """The README's own commands (createsuperuser, shell...) in a checkout with nothing set."""
    result = manage(tmp_path, *SAYS_DEBUG)
    assert result.returncode == 0, result.stderr
    assert "debug True" in result.stdout


@pytest.mark.parametrize(
    "env",
    [{"DJANGO_DEBUG": "0"}, {"DATABASE_URL": "sqlite:///unused.sqlite3"}, {"DJANGO_ALLOWED_HOSTS": "play.example.org"}],
    ids=["debug-off", "a-database", "a-host"],
)
def test_anything_that_says_production_keeps_manage_py_in_production(tmp_path, env):
    result = manage(tmp_path, *SAYS_DEBUG, **env)
    assert result.returncode != 0 and "DJANGO_SECRET_KEY" in result.stderr  # production, and no secret
    result = manage(tmp_path, *SAYS_DEBUG, DJANGO_SECRET_KEY=a_secret_key(), **env)
    assert "debug False" in result.stdout, result.stderr


def test_the_app_servers_never_default_to_development(tmp_path):
    clean = {
        key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "ADDICTION_", "DATABASE_URL"))
    }
    clean.update(ADDICTION_DATA_DIR=str(tmp_path))
    result = subprocess.run(
        [sys.executable, "-c", "import addiction_site.wsgi"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0 and "DJANGO_SECRET_KEY" in result.stderr


SIGN = (
    "from addiction_site.ownership import guest_cookie_value as v; "
    "print('cookie', v('g' * 32, '2026-12-01', '2026-12-02'))"
)
READ = "import sys; from addiction_site.ownership import read_guest_cookie as r; print('read', r(sys.argv[-1]))"


def test_a_rotated_key_still_believes_what_the_old_one_signed_while_it_is_a_fallback(tmp_path):
    old, new = a_secret_key(), a_secret_key()
    signed = manage(tmp_path, "shell", "-c", SIGN, DJANGO_SECRET_KEY=old, **PRODUCTION)
    cookie = signed.stdout.split()[-1]
    read = READ.replace("sys.argv[-1]", repr(cookie))
    rotated = manage(
        tmp_path, "shell", "-c", read, DJANGO_SECRET_KEY=new, DJANGO_SECRET_KEY_FALLBACKS=old, **PRODUCTION
    )
    assert "g" * 32 in rotated.stdout and "signed=True" in rotated.stdout, rotated.stderr
    forgotten = manage(tmp_path, "shell", "-c", read, DJANGO_SECRET_KEY=new, **PRODUCTION)
    assert forgotten.stdout.split()[-1] == "None", (
        forgotten.stderr
    )  # once the old key is dropped, nothing it signed holds
