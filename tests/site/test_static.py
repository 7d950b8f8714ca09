"""Production static files: collectstatic gives compressed files with hashed names, and pages use them."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.helpers import parse_html

ROOT = Path(__file__).resolve().parents[2]


def production_env(tmp_path) -> dict:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "addiction_site.settings",
        "DJANGO_SECRET_KEY": "x" * 60,
        "DJANGO_ALLOWED_HOSTS": "testserver",
        "ADDICTION_DATA_DIR": str(tmp_path / "data"),
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "ADDICTION_STATIC_ROOT": str(tmp_path / "static"),
    }
    env.pop("DJANGO_DEBUG", None)
    env.pop("DATABASE_URL", None)
    return env


def test_collectstatic_writes_hashed_compressed_files_and_pages_link_them(tmp_path):
    env = production_env(tmp_path)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    static = tmp_path / "static"
    hashed_css = [p.name for p in (static / "games").glob("site.*.css")]
    assert hashed_css, "no hashed copy of site.css"
    assert (static / "games" / f"{hashed_css[0]}.gz").exists()
    assert list((static / "django_htmx").glob("htmx*.min.*.js"))  # htmx-2.min.js (django-htmx 1.28+) or htmx.min.js

    script = (
        "import django; django.setup();"
        "from django.core.management import call_command; call_command('migrate', verbosity=0);"
        "from django.test import Client; r = Client().get('/how-to-play/');"
        "print(r.status_code); print(r.content.decode())"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    status, page = out.stdout.split("\n", 1)
    assert status == "200"
    stylesheets = [link["href"] for link in parse_html(page).find_all("link", rel="stylesheet")]
    assert any(href.removeprefix("/static/games/") in hashed_css for href in stylesheets), stylesheets


def test_collectstatic_minifies_the_sites_own_scripts_and_stylesheet_and_they_still_parse(tmp_path):
    """The copies sent are minified (addiction_site/static_storage.py): smaller than their
    sources, without their comments, each module still valid JavaScript (node --check, when
    Debian's nodejs is there) importing the others by their hashed names."""
    env = production_env(tmp_path)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    games = tmp_path / "static" / "games"
    modules = sorted(path for path in games.glob("*.js") if path.name.count(".") == 2)  # the hashed copies
    assert len(modules) >= 10
    for module in modules:
        source = (ROOT / "static" / "games" / f"{module.name.split('.')[0]}.js").read_text()
        sent = module.read_text()
        assert len(sent) < len(source) and "\n// " not in sent and "// " not in sent.splitlines()[0], module.name
        for imported in re.findall(r'import[^;"]*"(\./[^"]+)"', sent):
            assert imported.count(".") == 3 and (games / imported[2:]).exists(), (module.name, imported)
        if shutil.which("node"):
            checked = subprocess.run(
                ["node", "--input-type=module", "--check"], input=sent, text=True, capture_output=True
            )
            assert checked.returncode == 0, (module.name, checked.stderr)
    css = next(path for path in games.glob("site.*.css") if path.name.count(".") == 2).read_text()
    assert len(css) < len((ROOT / "static" / "games" / "site.css").read_text()) and "/*" not in css
