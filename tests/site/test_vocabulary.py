"""The game's vocabulary lives in the engine and is generated outward (issue 41): no module,
template or script of the site spells a variant's key, nor infers a table's width from a count
of columns; the model's choices, the database's cap on shuffles and the names come from
engine.VARIANTS."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.db import IntegrityError, transaction
from django.utils import translation

from games import engine
from games.models import Game, Variant
from games.services import game_start
from tests.helpers import account
from tests.winning import user_owner

ROOT = Path(__file__).resolve().parents[2]
APPS = ("games", "records", "daily", "accounts", "races", "addiction_site")
KEYS = set(engine.VARIANTS)
# "addiction" is also the site's own name: its shared cache's key prefix says that one.
SITE_NAME = {("addiction_site/settings.py", "addiction")}


def _where(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def _python_files() -> list[Path]:
    files = [path for app in APPS for path in (ROOT / app).rglob("*.py")]
    return sorted(path for path in files if "migrations" not in path.parts and path.name != "engine.py")


def keys_in_python(path: Path) -> list[str]:
    """The variant keys a module spells as string constants (docstrings, examples, aside)."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    where = _where(path)
    return [
        f"{where}:{node.lineno} {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and node.value in KEYS
        and id(node) not in docstrings
        and (where, node.value) not in SITE_NAME
    ]


QUOTED_KEY = re.compile(r"""["'](%s)["']""" % "|".join(re.escape(key) for key in sorted(KEYS)))
WIDTH = re.compile(r"""==\s*1[34]\b|["']\d-13["']|\?\s*14\s*:\s*13""")


def _page_files() -> list[Path]:
    templates = [path for app in APPS for path in (ROOT / app / "templates").rglob("*.html")]
    return sorted([*templates, *(ROOT / "templates").rglob("*.html"), *(ROOT / "static").rglob("*.js")])


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """A template's or a script's lines, each without its comments ({# #}, //)."""
    found = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        line = re.sub(r"\{#.*?#\}", "", line)
        if path.suffix == ".js":
            line = re.sub(r"(^|\s)//.*$", "", line)
        found.append((number, line))
    return found


def spelled_in_page(path: Path) -> list[str]:
    where = _where(path)
    return [
        f"{where}:{number} {line.strip()[:80]}"
        for number, line in _code_lines(path)
        if QUOTED_KEY.search(line) or WIDTH.search(line)
    ]


def test_no_module_outside_the_engine_spells_a_variant_key():
    assert [found for path in _python_files() for found in keys_in_python(path)] == []


def test_no_template_or_script_spells_a_variant_key_or_counts_a_width():
    assert [found for path in _page_files() for found in spelled_in_page(path)] == []


def test_the_checks_find_what_they_look_for(tmp_path):
    module = tmp_path / "leak.py"
    module.write_text('"""About "montana"."""\nDEFAULT = "montana"\n')
    assert [found.split(" ", 1)[1] for found in keys_in_python(module)] == ["'montana'"]
    page = tmp_path / "page.html"
    page.write_text(
        '{% if game.variant != "addiction" %}{# "spaces" #}\n<div class="{% if game.cols == 14 %}wide{% endif %}">\n'
    )
    assert len(spelled_in_page(page)) == 2


# --------------------------------------------------------------------------- generated outward


def test_the_models_choices_are_the_engines_variants_in_its_order():
    with translation.override("en"):  # the engine's names are English; the site translates them
        choices = [(key, str(label)) for key, label in Variant.choices]
    assert choices == [(rules.key, rules.name) for rules in engine.VARIANTS.values()]
    with translation.override("it"):
        assert str(Variant("blue-moon").label) != "Blue Moon"  # a name the catalogs translate
    assert Variant.named(None).rules is engine.DEFAULT_VARIANT and Variant.named("chess").rules.default
    assert all(Variant(key).rules is rules for key, rules in engine.VARIANTS.items())


@pytest.mark.django_db
@pytest.mark.parametrize("rules", list(engine.VARIANTS.values()), ids=str)
def test_the_database_holds_each_variant_to_its_own_shuffles(rules):
    game = game_start(owner=user_owner(account()), deal_number=1, variant=rules.key)
    Game.objects.filter(pk=game.pk).update(shuffles_used=rules.shuffles)  # all of its shuffles: allowed
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(shuffles_used=rules.shuffles + 1)
