"""No secret goes into the container image (issue 30): what deploy/Dockerfile's `COPY . .` takes
from a deployment's checkout, by .dockerignore's rules, holds none of the files the README
tells an operator to put beside it (deploy/.env, deploy/certs/), and git ignores them too.

The build context is worked out here with Docker's documented matching (each pattern
relative to the context's root, ``**`` any number of folders, ``!`` an exception, the
last pattern that matches deciding, a folder excluded with all it holds), since this
machine has no Docker daemon to build with."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SECRETS = [
    "deploy/.env",
    "deploy/certs/fullchain.pem",
    "deploy/certs/privkey.pem",
    ".env",
    "var/db.sqlite3",
    # Copies of the players' data (issue 46): the README's pg_dump into the checkout, a backup.
    "addiction.dump",
    "backups/addiction-2026-12-05T031700Z.dump",
    "var/backup.sqlite3",
    "dump.sql.gz",
]


def pattern_regex(pattern: str) -> re.Pattern:
    """A .dockerignore pattern as a regular expression over a path relative to the context."""
    parts, i = [], 0
    pattern = pattern.strip("/")
    while i < len(pattern):
        if pattern.startswith("**/", i):
            parts.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            parts.append(".*")
            i += 2
        elif pattern[i] == "*":
            parts.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            parts.append("[^/]")
            i += 1
        else:
            parts.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(parts) + "(?:/.*)?")  # a folder's pattern takes what it holds


def rules() -> list[tuple[bool, re.Pattern]]:
    found = []
    for line in (ROOT / ".dockerignore").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            found.append((line.startswith("!"), pattern_regex(line.lstrip("!"))))
    return found


def copied(path: str, patterns) -> bool:
    """Whether `COPY . .` takes ``path``: the last pattern that matches decides."""
    taken = True
    for exception, regex in patterns:
        if regex.fullmatch(path):
            taken = exception
    return taken


def test_the_patterns_match_as_docker_documents():
    assert pattern_regex("**/*.pem").fullmatch("deploy/certs/a.pem")
    assert pattern_regex("**/*.pem").fullmatch("a.pem")
    assert pattern_regex("deploy/certs").fullmatch("deploy/certs/privkey.pem")
    assert not pattern_regex("var").fullmatch("games/var.py")
    assert copied("x.pem", [(False, pattern_regex("*.pem")), (True, pattern_regex("x.pem"))])


def test_a_deployments_checkout_copies_no_secret_into_the_image(tmp_path):
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    checkout = tmp_path / "checkout"
    for name in tracked:  # the checkout an operator deploys from, with the files the README has them add
        if (ROOT / name).is_file():
            (checkout / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / name, checkout / name)
    for name in SECRETS:
        (checkout / name).parent.mkdir(parents=True, exist_ok=True)
        (checkout / name).write_text("secret\n")
    patterns = rules()
    image = {
        path.relative_to(checkout).as_posix()
        for path in checkout.rglob("*")
        if path.is_file() and copied(path.relative_to(checkout).as_posix(), patterns)
    }
    assert not image & set(SECRETS)
    assert not [name for name in image if name.endswith((".pem", ".key", ".env"))]
    # What the image runs is there: the project, its apps, the lock, translations, gunicorn's settings.
    assert {"manage.py", "games/engine.py", "requirements/base.txt", "deploy/gunicorn.conf.py"} <= image
    assert "locale/it/LC_MESSAGES/django.mo" in image


def test_git_ignores_the_deployments_secrets():
    ignored = subprocess.run(["git", "check-ignore", *SECRETS], cwd=ROOT, capture_output=True, text=True)
    assert sorted(ignored.stdout.split()) == sorted(SECRETS)


@pytest.mark.django_db
def test_favicon_ico_leads_to_the_sites_icon(client):
    """Issue 46: /favicon.ico, which browsers ask for whatever a page links, answered 404."""
    answer = client.get("/favicon.ico")
    assert answer.status_code == 302 and answer["Location"].startswith("/static/games/icon-192")
    assert answer["Location"].endswith(".png")


def test_the_manifest_has_a_name_every_server_sends_as_json():
    """Debian's nginx sent the .webmanifest as application/octet-stream; .json it sends as JSON."""
    import mimetypes

    assert "games/manifest.json" in (ROOT / "templates" / "base.html").read_text()
    assert mimetypes.guess_type("manifest.json")[0] == "application/json"
