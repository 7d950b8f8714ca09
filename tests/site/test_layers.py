"""The boundaries the import contracts cannot see (pyproject.toml, [tool.importlinter], holds
the rest; README.md, "Layout", says what each app and layer is for), checked by
`python3 dev.py lint` as well as by the suite:

- a view (and the other modules that draw pages: the races' stream, the apps' panels) parses
  the request and renders, and asks the selectors and services for everything stored;
- the games app names no other app in its templates either: no ``{% include %}`` or
  ``{% extends %}`` of another app's template, no ``{% load %}`` of another app's tag library,
  no ``{% url %}`` of another app's address, and no other app's template named in its Python.
  What another app adds to a game's pages comes through games/registry.py.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.template.backends.django import get_installed_libraries

ROOT = Path(__file__).resolve().parents[2]
APPS = ("games", "records", "daily", "accounts", "races")
VIEWS = sorted(
    path for app in APPS for pattern in ("views*.py", "stream.py", "panels.py") for path in (ROOT / app).glob(pattern)
)
# What only a query set, a manager or a database connection answers to.
QUERYING = {
    "objects", "filter", "exclude", "select_for_update", "values_list", "annotate", "aggregate", "order_by",
    "select_related", "prefetch_related", "bulk_create", "get_or_create", "update_or_create", "exists", "raw",
    "cursor", "only", "defer",
}  # fmt: skip
# The load benchmark's baseline is by design one raw UPDATE in a view (games/views_benchmark.py).
ALLOWED = {("views_benchmark.py", "cursor")}


def queries_in(path: Path) -> list[str]:
    """Each attribute of a query that ``path`` reads, as "views.py:LINE .name"."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Attribute) and node.attr in QUERYING and (path.name, node.attr) not in ALLOWED:
            found.append(f"{path.name}:{node.lineno} .{node.attr}")
    return sorted(found)


def test_every_app_has_its_views_module():
    assert {path.parent.name for path in VIEWS if path.name == "views.py"} == set(APPS)


@pytest.mark.parametrize("path", VIEWS, ids=lambda path: str(path.relative_to(ROOT)))
def test_views_ask_the_selectors_and_services_for_what_is_stored(path):
    assert queries_in(path) == []


def test_the_check_finds_a_query_in_a_view(tmp_path):
    leaky = tmp_path / "views.py"
    leaky.write_text("def page(request):\n    return Game.objects.filter(owner=request.user).first()\n")
    assert queries_in(leaky) == ["views.py:2 .filter", "views.py:2 .objects"]


# --------------------------------------------------------------------------- the games app's pages

TEMPLATE_NAMED = re.compile(r"""{%-?\s*(?:include|extends)\s+["']([\w./-]+)["']""")
LOADED = re.compile(r"{%-?\s*load\s+([\w\s.]+?)\s*-?%}")
URL_NAMED = re.compile(r"""{%-?\s*url\s+["'](\w+):""")
OTHERS = tuple(app for app in APPS if app != "games")


def _library_app(name: str, libraries: dict[str, str] | None = None) -> str:
    """The app a template tag library comes from, by its module ("races.templatetags.races_tags": races)."""
    libraries = libraries if libraries is not None else get_installed_libraries()
    return libraries[name].partition(".")[0]


def reaches_out(text: str, where: str, libraries: dict[str, str] | None = None) -> list[str]:
    """Each place where a games template names another app."""
    found = [f"{where}: includes {name}" for name in TEMPLATE_NAMED.findall(text) if name.startswith(OTHERS)]
    for names in LOADED.findall(text):
        loaded = names.split(" from ")[-1].split() if " from " in names else names.split()
        found += [f"{where}: loads {lib}" for lib in loaded if _library_app(lib, libraries) in OTHERS]
    found += [f"{where}: links to {app}:" for app in URL_NAMED.findall(text) if app in OTHERS]
    return found


GAMES_FILES = sorted([*(ROOT / "games" / "templates").rglob("*.html"), *(ROOT / "games").rglob("*.py")])


def test_the_games_app_names_no_other_app_in_its_templates_or_their_names():
    found = []
    for path in GAMES_FILES:
        if "migrations" in path.parts:
            continue
        text = path.read_text()
        where = str(path.relative_to(ROOT))
        if path.suffix == ".html":
            found += reaches_out(text, where)
        else:
            named = re.findall(r"""["']((?:%s)/[\w./-]+\.html)["']""" % "|".join(OTHERS), text)
            found += [f"{where}: renders {name}" for name in named]
    assert found == []


def test_the_check_finds_a_template_that_reaches_into_another_app():
    libraries = {"i18n": "django.templatetags.i18n", "races_tags": "races.templatetags.races_tags"}
    leaky = """{% load i18n races_tags %}{% include "records/_best.html" %}<a href="{% url 'races:new' %}">"""
    assert reaches_out(leaky, "t.html", libraries) == [
        "t.html: includes records/_best.html",
        "t.html: loads races_tags",
        "t.html: links to races:",
    ]
    assert reaches_out("{% load x from races_tags %}", "t.html", libraries) == ["t.html: loads races_tags"]
    assert reaches_out("{% load i18n games_extras %}", "t.html") == []  # its own and Django's
